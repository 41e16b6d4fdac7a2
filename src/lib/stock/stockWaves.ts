import type { Logger } from '../log.js'
import { productUrl, targetKey, targetTitle } from '../productCatalogue.js'
import { sendableAt, type QuietHours } from '../quietHours.js'
import type { DeliveryMode, NotificationTrigger } from '../storage/records.js'
import type { StockRecord, StockRef, StockRepository } from '../storage/stockRecords.js'
import { fillPlaceholders } from './autoNotice.js'

/**
 * Automatic restock notices in waves, per product or, for a product with variants, per variant
 * (each variant has its own stock record, settings and ledger; its waves e-mail only those
 * waiting for that variant). A rise from 0 makes wave 1 of a new episode due at once
 * (stockUpdates.ts); each wave e-mails `quantity × perUnit` of the oldest waiting subscribers,
 * `quantity` read just before it, through the same send and delivery as a manual send; the next
 * wave is due `intervalMinutes` later. Stock 0, the notice turned off, or nobody left waiting
 * ends the episode. A wave due inside the quiet hours (`QUIET_HOURS`) waits, still due, for their
 * end; the sweep then sends what waited in the order it fell due (restock/dueSends.ts).
 *
 * Exactly once: wave (product or variant, episode, n) has one notification id, so running it twice (the
 * raising request and a sweep at once, or again after a crash between sending and moving the
 * ledger on) finds the notice already stored and sends nothing more; the ledger moves on by
 * compare-and-swap only from the wave it ran. Subscribers are claimed per notice (sendClaims.ts).
 */

/** What a wave asks the send path to do. */
export interface WaveNotice {
  notificationId: string
  productSlug: string
  /** The variant whose subscribers the wave e-mails; absent for a product without variants. */
  variant?: string
  emailTitle: string
  emailBody: string
  /** The most subscribers this wave may e-mail. */
  limit: number
  trigger: NotificationTrigger
}

/**
 * `sent`: the notice exists (sent now or before); `nobody-waiting`: no subscriber left to claim;
 * `busy`: another send is choosing this product's recipients (the wave stays due).
 */
export type WaveSendOutcome =
  | { state: 'sent'; notificationId: string; recipients: number; deliveryMode: DeliveryMode }
  | { state: 'nobody-waiting' }
  | { state: 'busy' }

export interface WaveOptions {
  stock: StockRepository
  /** The send path of `admin/notify/send`, limited to `limit` oldest waiting subscribers. */
  sendWave: (notice: WaveNotice) => Promise<WaveSendOutcome>
  /** The notification id of wave `wave` of episode `episode` of a product (or variant). */
  waveNotificationId: (target: StockRef, episode: number, wave: number) => string
  /** Base of `{url}`: the storefront (config `storefrontUrl`). */
  storefrontUrl: string
  /** The hours no wave is sent (config `quietHours`); null: none. */
  quietHours: QuietHours | null
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
}

export type WaveRun =
  | { state: 'not-due' }
  /** Due inside the quiet hours: still due, it goes at `sendsAt` (their end) or the sweep after. */
  | { state: 'quiet-hours'; sendsAt: string }
  | { state: 'ended'; reason: 'stock-zero' | 'auto-off' | 'nobody-waiting' }
  | { state: 'busy' }
  | {
      state: 'sent'
      notificationId: string
      wave: number
      recipients: number
      /** `record-only`: no e-mail provider, the recipients were only marked notified (§4.8). */
      deliveryMode: DeliveryMode
      nextAt: string
    }

/** Runs the product's (or variant's) wave if one is due now. */
export async function runDueWave(target: StockRef, options: WaveOptions): Promise<WaveRun> {
  const { now } = options
  const { productSlug } = target
  const ref: StockRef = target.variant === undefined ? { productSlug } : target
  const record = await options.stock.get(ref)
  if (!record || record.waves.dueAt === null || Date.parse(record.waves.dueAt) > now()) {
    return { state: 'not-due' }
  }
  const sendsAt = sendableAt(options.quietHours, now())
  if (sendsAt > now()) {
    options.log.info('stock.wave.quiet_hours', {
      ...ref,
      episode: record.waves.episode,
      wave: record.waves.nextWave,
      sendsAt: new Date(sendsAt).toISOString(),
    })
    return { state: 'quiet-hours', sendsAt: new Date(sendsAt).toISOString() }
  }
  const { episode, nextWave } = record.waves
  const quantity = record.quantity ?? 0
  const auto = record.auto
  if (!auto?.enabled) return end(record, 'auto-off')
  if (quantity <= 0) return end(record, 'stock-zero')

  const values = {
    // why: 「美濃焼 マグカップ（藍）」: a wave of a variant names it
    product: targetTitle(ref),
    url: productUrl(productSlug, options.storefrontUrl),
  }
  const notificationId = options.waveNotificationId(ref, episode, nextWave)
  const outcome = await options.sendWave({
    notificationId,
    ...ref,
    emailTitle: fillPlaceholders(auto.emailTitle, values),
    emailBody: fillPlaceholders(auto.emailBody, values),
    limit: quantity * auto.perUnit,
    trigger: { kind: 'stock-wave', episode, wave: nextWave, quantity, perUnit: auto.perUnit },
  })
  if (outcome.state === 'busy') {
    options.log.info('stock.wave.busy', { ...ref, episode, wave: nextWave })
    return { state: 'busy' }
  }
  if (outcome.state === 'nobody-waiting') return end(record, 'nobody-waiting')

  const nextAt = new Date(now() + auto.intervalMinutes * 60_000).toISOString()
  await options.stock.change(ref, (current) =>
    sameWave(current, record)
      ? { ...current, waves: { episode, nextWave: nextWave + 1, dueAt: nextAt } }
      : current,
  )
  options.log.info('stock.wave.sent', {
    ...ref,
    episode,
    wave: nextWave,
    notificationId,
    recipients: outcome.recipients,
    quantity,
    perUnit: auto.perUnit,
    nextAt,
  })
  return {
    state: 'sent',
    notificationId,
    wave: nextWave,
    recipients: outcome.recipients,
    deliveryMode: outcome.deliveryMode,
    nextAt,
  }

  async function end(read: StockRecord, reason: 'stock-zero' | 'auto-off' | 'nobody-waiting') {
    await options.stock.change(ref, (current) =>
      sameWave(current, read) ? { ...current, waves: { ...current.waves, dueAt: null } } : current,
    )
    options.log.info('stock.waves.ended', {
      ...ref,
      episode: read.waves.episode,
      wave: read.waves.nextWave,
      reason,
    })
    return { state: 'ended' as const, reason }
  }
}

function sameWave(current: StockRecord, read: StockRecord): boolean {
  return (
    current.waves.episode === read.waves.episode &&
    current.waves.nextWave === read.waves.nextWave &&
    current.waves.dueAt !== null
  )
}

/** A product (or variant) whose wave is due, and since when (ms). */
export interface DueWave {
  target: StockRef
  dueAt: number
}

/**
 * The products and variants whose wave is due at `now`, the one due first first (then by
 * `targetKey`).
 */
export async function dueWaves(stock: StockRepository, now: number): Promise<DueWave[]> {
  const { records } = await stock.list()
  return records
    .flatMap(({ productSlug, variant, waves }) => {
      const dueAt = waves.dueAt === null ? Number.NaN : Date.parse(waves.dueAt)
      const target: StockRef = variant === undefined ? { productSlug } : { productSlug, variant }
      return dueAt <= now ? [{ target, dueAt }] : []
    })
    .sort((a, b) => a.dueAt - b.dueAt || targetKey(a.target).localeCompare(targetKey(b.target)))
}

/**
 * Runs every wave due now, one product (or variant) after another, in the order they fell due;
 * the runs are keyed by `targetKey`.
 */
export async function runDueWaves(options: WaveOptions): Promise<Record<string, WaveRun>> {
  const runs: Record<string, WaveRun> = {}
  for (const { target } of await dueWaves(options.stock, options.now())) {
    try {
      runs[targetKey(target)] = await runDueWave(target, options)
    } catch (error) {
      // why: one product's failure must not hold back the others; it stays due for the next sweep
      options.log.error('stock.wave.failed', error, { ...target })
    }
  }
  return runs
}
