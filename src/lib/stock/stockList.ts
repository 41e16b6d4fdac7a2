import { emptyWaitingCount, waitingCounts } from '../compliance/restockRecipients.js'
import type { NotWaitingReason } from '../compliance/waitingRule.js'
import { listProducts, targetKey, type ProductTarget } from '../productCatalogue.js'
import { sendableAt, type QuietHours } from '../quietHours.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import { emptyStockRecord, type AutoNotice, type StockRepository } from '../storage/stockRecords.js'
import { holdCountsOf, type HoldCounts } from '../storage/restockHolds.js'
import type { SuppressionRepository } from '../storage/suppressionRepository.js'

/** One product's (or one variant's) line of POST /api/admin/stock/list. */
export interface StockRow {
  productSlug: string
  /** The variant (its id): a product with variants has one line per variant. */
  variant?: string
  /** Units in stock, or null while no source has reported one. */
  quantity: number | null
  /** When the quantity last changed, or null. */
  updatedAt: string | null
  /** Subscribers waiting: who a send or the next wave would e-mail (compliance/restockRecipients.ts). */
  waiting: number
  /** Pending subscribers who are not waiting, by reason. */
  notWaiting: Record<NotWaitingReason, number>
  /** Of `waiting`, the LINE sign-ups (pushed in LINE). */
  lineWaiting: number
  /** Automatic-notice settings, or null while none are set. */
  auto: AutoNotice | null
  /** Holds (お取り置き): open, claimed, expired. */
  holds: HoldCounts
  /**
   * When the next automatic wave goes, or null when none is due: its due time, or the end of the
   * quiet hours it falls in.
   */
  nextWaveAt: string | null
}

/**
 * Every product of the catalogue (each variant of a product with variants, in catalogue order)
 * with its stock, waiting subscribers and automatic notice; `quietHours` (config) moves a wave
 * due inside them to their end.
 */
export async function listStock(
  sources: {
    stock: StockRepository
    subscriptions: SubscriptionRepository
    suppressions: SuppressionRepository
  },
  quietHours: QuietHours | null,
): Promise<StockRow[]> {
  const [stock, counts] = await Promise.all([sources.stock.list(), waitingCounts(sources)])
  const records = new Map(stock.records.map((record) => [targetKey(record), record]))
  const targets = listProducts().flatMap(({ slug, variants }): ProductTarget[] =>
    variants
      ? variants.map((variant) => ({ productSlug: slug, variant: variant.id }))
      : [{ productSlug: slug }],
  )
  return targets.map((target) => {
    const key = targetKey(target)
    const record = records.get(key) ?? emptyStockRecord(target)
    const count = counts.get(key) ?? emptyWaitingCount()
    const dueAt = record.auto?.enabled ? record.waves.dueAt : null
    return {
      ...target,
      quantity: record.quantity,
      updatedAt: record.updatedAt,
      waiting: count.waiting,
      notWaiting: count.notWaiting,
      lineWaiting: count.lineWaiting,
      auto: record.auto,
      holds: holdCountsOf(record),
      nextWaveAt:
        dueAt === null ? null : new Date(sendableAt(quietHours, Date.parse(dueAt))).toISOString(),
    }
  })
}
