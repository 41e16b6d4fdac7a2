import { SYSTEM_ACTORS } from '../actors.js'
import { auditRecorder } from '../audit/auditTrail.js'
import type { Logger } from '../log.js'
import { targetKey } from '../productCatalogue.js'
import type { AuditRepository } from '../storage/auditRepository.js'
import { endingHolds, holdsOf, withHoldsEnded } from '../storage/restockHolds.js'
import type { StockRef, StockRepository } from '../storage/stockRecords.js'
import type { DueSource } from './dueSends.js'

/**
 * The end of holds (お取り置き) nobody claimed: at each sweep (restock/dueSends.ts, the
 * scheduled `stock-reconcile`) every hold past its end is closed and its unit goes back to the
 * product's (or variant's) stock record, in one compare-and-swap per record; the next wave,
 * at the wave interval, offers it to the next oldest waiting. A hold whose e-mail never went gives
 * its unit back an hour after it would have ended. Running it again changes nothing: a hold ends
 * once, and only that run audits it (actor `hold-expiry`, the system).
 */

export interface HoldExpiryOptions {
  stock: StockRepository
  /** Where each hold that ends unclaimed is recorded. */
  auditTrail: AuditRepository
  log: Logger
  /** The clock, ms since the epoch. */
  now: () => number
}

/** Ends the holds of one product (or variant) whose time is up; answers how many ended unclaimed. */
export async function endHolds(target: StockRef, options: HoldExpiryOptions): Promise<number> {
  const now = options.now()
  let ended: { id: string; unclaimed: boolean }[] = []
  await options.stock.change(target, (current) => {
    const holds = holdsOf(current)
    ended = endingHolds(current, now).map((id) => ({ id, unclaimed: holds[id].state === 'open' }))
    return withHoldsEnded(current, now)
  })
  if (ended.length === 0) return 0
  options.log.info('hold.ended', {
    ...target,
    unclaimed: ended.filter((hold) => hold.unclaimed).length,
    unsent: ended.filter((hold) => !hold.unclaimed).length,
  })
  const audit = auditRecorder({
    repository: options.auditTrail,
    actor: SYSTEM_ACTORS.holdExpiry,
    log: options.log,
    now: options.now,
  })
  await audit.record(
    ended.map(({ id, unclaimed }) => ({
      action: 'hold-expire' as const,
      record: { type: 'product' as const, id: targetKey(target), productSlug: target.productSlug },
      from: id,
      to: unclaimed ? 'expired' : 'unsent',
    })),
  )
  return ended.filter((hold) => hold.unclaimed).length
}

/** The products (and variants) with holds to end, each due since its first hold's end. */
export function holdExpirySource(options: HoldExpiryOptions): DueSource {
  return async (now) => {
    const { records } = await options.stock.list()
    return records.flatMap((record) => {
      const ending = endingHolds(record, now)
      if (ending.length === 0) return []
      const holds = holdsOf(record)
      const dueAt = Math.min(
        ...ending.map((id) => Date.parse(holds[id].endsAt ?? holds[id].createdAt)),
      )
      const target: StockRef =
        record.variant === undefined
          ? { productSlug: record.productSlug }
          : { productSlug: record.productSlug, variant: record.variant }
      return [
        {
          kind: 'hold-expiry',
          key: targetKey(target),
          dueAt,
          // why: ending a hold e-mails nobody, so the quiet hours do not hold it back
          automatic: false,
          send: async () => {
            await endHolds(target, { ...options, now: () => Math.max(now, options.now()) })
            return 'done' as const
          },
        },
      ]
    })
  }
}
