import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import { productOfLine } from '../productCatalogue.js'
import type { DeliveryMode } from '../storage/records.js'
import type { StockRecord, StockRepository, StockSource } from '../storage/stockRecords.js'
import type { StockLine } from './stockSchemas.js'
import type { WaveRun } from './stockWaves.js'

/**
 * The one way stock changes, whichever way it comes in (the admin endpoint, the signed webhook,
 * the scheduled feed): each product's record is changed by compare-and-swap, and a change that
 * takes a product from 0 (or unknown) to more than 0 while its automatic notice is on starts a
 * wave episode in the same write. Of any number of simultaneous raises exactly one sees the
 * product at 0, so exactly one starts the episode.
 */

/** The per-item text for a slug or sku no product of the catalogue has. */
export const PRODUCT_NOT_FOUND = 'Product not found'

/** Products changed at once (each its own blob write). */
const UPDATE_CONCURRENCY = 10

export interface StockChange {
  productSlug: string
  quantity: number
  /** The quantity before, or null when it was unknown. */
  previous: number | null
  /** What the automatic wave this change started did; absent when it started none. */
  wave?: StartedWave
}

/**
 * The first wave of an episode, as the change that started it answers it: `sent` (to
 * `recipients` subscribers; `nextAt` the next wave while stock lasts), `nobody-waiting` (the
 * episode ended at once), `quiet-hours` (a change inside the quiet hours: the wave goes at
 * `sendsAt`, their end), or `later` (another send held the product, or the wave failed: it stays
 * due and the scheduled sweep sends it).
 */
export type StartedWave =
  | {
      state: 'sent'
      notificationId: string
      recipients: number
      deliveryMode: DeliveryMode
      nextAt: string
    }
  | { state: 'nobody-waiting' }
  | { state: 'quiet-hours'; sendsAt: string }
  | { state: 'later' }

function startedWave(run: WaveRun | null): StartedWave {
  if (run?.state === 'sent') {
    const { notificationId, recipients, deliveryMode, nextAt } = run
    return { state: 'sent', notificationId, recipients, deliveryMode, nextAt }
  }
  if (run?.state === 'ended' && run.reason === 'nobody-waiting') return { state: 'nobody-waiting' }
  if (run?.state === 'quiet-hours') return { state: 'quiet-hours', sendsAt: run.sendsAt }
  return { state: 'later' }
}

export interface StockItemError {
  productSlug?: string
  sku?: string
  error: string
}

export interface StockUpdateResult {
  /** One entry per product, in request order (a product named twice: its last line). */
  updated: StockChange[]
  errors: StockItemError[]
  /** Products whose automatic waves this update started. */
  wavesStarted: string[]
}

export interface StockUpdateOptions {
  stock: StockRepository
  log: Logger
  source: StockSource
  /** The webhook event carrying the lines, if any. */
  eventId?: string | null
  /**
   * Where each quantity that changed is recorded (the audit trail, with the staff member or the
   * automatic source as actor). Default: nowhere.
   */
  audit?: AuditRecorder
  /** Runs the wave an update made due (automatic notices). Default: none. */
  startWave?: (productSlug: string) => Promise<WaveRun>
  /** The request's clock, ms since the epoch. */
  now: () => number
}

/** A stock change's effect on one record (pure; may run more than once). */
export function withQuantity(
  current: StockRecord,
  quantity: number,
  stamp: { at: string; source: StockSource; eventId: string | null },
): StockRecord {
  if (current.quantity === quantity) return current
  const rising = (current.quantity ?? 0) <= 0 && quantity > 0
  let waves = current.waves
  if (rising && current.auto?.enabled) {
    waves = { episode: waves.episode + 1, nextWave: 1, dueAt: stamp.at }
  } else if (quantity === 0 && waves.dueAt !== null) {
    waves = { ...waves, dueAt: null }
  }
  return {
    ...current,
    quantity,
    updatedAt: stamp.at,
    source: stamp.source,
    lastEventId: stamp.eventId,
    waves,
  }
}

/**
 * Stock lines resolved to the catalogue: each product's quantity (a product named twice takes its
 * last line, in the order it was last named) and the lines naming no product.
 */
export function resolveStockLines(lines: readonly StockLine[]): {
  bySlug: Map<string, number>
  errors: StockItemError[]
} {
  const errors: StockItemError[] = []
  const bySlug = new Map<string, number>()
  for (const line of lines) {
    const product = productOfLine(line)
    if (!product) {
      errors.push({
        ...(line.productSlug ? { productSlug: line.productSlug } : { sku: line.sku }),
        error: PRODUCT_NOT_FOUND,
      })
      continue
    }
    bySlug.delete(product.slug)
    bySlug.set(product.slug, line.quantity)
  }
  return { bySlug, errors }
}

export async function applyStockLines(
  lines: readonly StockLine[],
  options: StockUpdateOptions,
): Promise<StockUpdateResult> {
  const { now } = options
  const { bySlug, errors } = resolveStockLines(lines)
  const stamp = {
    at: new Date(now()).toISOString(),
    source: options.source,
    eventId: options.eventId ?? null,
  }
  const wavesStarted: string[] = []
  const updated = await mapWithConcurrency(
    [...bySlug],
    UPDATE_CONCURRENCY,
    async ([productSlug, quantity]): Promise<StockChange> => {
      const { before, after } = await options.stock.change(productSlug, (current) =>
        withQuantity(current, quantity, stamp),
      )
      if (before.quantity !== after.quantity) {
        options.log.info('stock.changed', {
          productSlug,
          from: before.quantity,
          to: after.quantity,
          source: options.source,
          eventId: stamp.eventId,
        })
      }
      if (after.waves.episode > before.waves.episode) wavesStarted.push(productSlug)
      return { productSlug, quantity, previous: before.quantity }
    },
  )
  await options.audit?.record(
    updated
      .filter((change) => change.previous !== change.quantity)
      .map(({ productSlug, previous, quantity }) => ({
        action: 'stock' as const,
        record: { type: 'product' as const, id: productSlug, productSlug },
        from: previous === null ? null : String(previous),
        to: String(quantity),
      })),
  )
  const waves = new Map<string, StartedWave>()
  for (const productSlug of wavesStarted) {
    options.log.info('stock.waves_started', { productSlug, source: options.source })
    let run: WaveRun | null = null
    try {
      run = (await options.startWave?.(productSlug)) ?? null
    } catch (error) {
      // why: the wave stays due in the ledger; the scheduled sweep sends it
      options.log.error('stock.wave_failed', error, { productSlug })
    }
    waves.set(productSlug, startedWave(run))
  }
  return {
    updated: updated.map((change) => {
      const wave = waves.get(change.productSlug)
      return wave ? { ...change, wave } : change
    }),
    errors,
    wavesStarted,
  }
}
