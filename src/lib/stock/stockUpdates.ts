import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import {
  findProduct,
  findSku,
  findVariant,
  targetKey,
  type ProductTarget,
} from '../productCatalogue.js'
import type { DeliveryMode } from '../storage/records.js'
import type { StockRecord, StockRepository, StockSource } from '../storage/stockRecords.js'
import type { StockLine } from './stockSchemas.js'
import type { WaveRun } from './stockWaves.js'

/**
 * The one way stock changes, whichever way it comes in (the admin endpoint, the signed webhook,
 * the scheduled feed): each product's record (each variant's, for a product with variants) is
 * changed by compare-and-swap, and a change that takes it from 0 (or unknown) to more than 0
 * while its automatic notice is on starts a wave episode in the same write. Of any number of
 * simultaneous raises exactly one sees it at 0, so exactly one starts the episode.
 */

/** The per-item text for a slug or sku no product of the catalogue has. */
export const PRODUCT_NOT_FOUND = 'Product not found'
/** The per-item text for a product with variants named without one (a sku names its variant). */
export const VARIANT_REQUIRED = 'variant is required: this product has variants'
/** The per-item text for a variant the product does not have (or a product without variants). */
export const VARIANT_NOT_FOUND = 'Variant not found'

/** Products changed at once (each its own blob write). */
const UPDATE_CONCURRENCY = 10

export interface StockChange {
  productSlug: string
  /** The variant whose stock changed (its id); absent for a product without variants. */
  variant?: string
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
  variant?: string
  sku?: string
  error: string
}

export interface StockUpdateResult {
  /** One entry per product or variant, in request order (one named twice: its last line). */
  updated: StockChange[]
  errors: StockItemError[]
  /** Products (or variants) whose automatic waves this update started. */
  wavesStarted: ProductTarget[]
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
  startWave?: (target: ProductTarget) => Promise<WaveRun>
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

/** A stock line resolved to the catalogue: the product or variant it names and its quantity. */
export interface ResolvedStockLine {
  target: ProductTarget
  quantity: number
}

/**
 * Stock lines resolved to the catalogue: each product's (or variant's) quantity, keyed by
 * `targetKey` (one named twice takes its last line, in the order it was last named), and the
 * lines naming no product or variant.
 */
export function resolveStockLines(lines: readonly StockLine[]): {
  byTarget: Map<string, ResolvedStockLine>
  errors: StockItemError[]
} {
  const errors: StockItemError[] = []
  const byTarget = new Map<string, ResolvedStockLine>()
  for (const line of lines) {
    const resolved = stockTargetOf(line)
    if (typeof resolved === 'string') {
      errors.push({
        ...(line.productSlug ? { productSlug: line.productSlug } : { sku: line.sku }),
        ...(line.variant === undefined ? {} : { variant: line.variant }),
        error: resolved,
      })
      continue
    }
    const key = targetKey(resolved)
    byTarget.delete(key)
    byTarget.set(key, { target: resolved, quantity: line.quantity })
  }
  return { byTarget, errors }
}

/**
 * What a stock line names: a sku names a product without variants or one variant (a `variant`
 * sent beside it must agree); a productSlug names a product without variants, or with `variant`
 * one variant of a product with variants. Else the per-item error text.
 */
function stockTargetOf(line: StockLine): ProductTarget | string {
  if (!line.productSlug) {
    const owner = findSku(line.sku ?? '')
    if (!owner) return PRODUCT_NOT_FOUND
    const variant = owner.variant?.id
    if (line.variant !== undefined && line.variant !== variant) return VARIANT_NOT_FOUND
    return variant === undefined
      ? { productSlug: owner.product.slug }
      : { productSlug: owner.product.slug, variant }
  }
  const product = findProduct(line.productSlug)
  if (!product) return PRODUCT_NOT_FOUND
  if (!product.variants) {
    return line.variant === undefined ? { productSlug: product.slug } : VARIANT_NOT_FOUND
  }
  if (line.variant === undefined) return VARIANT_REQUIRED
  const variant = findVariant(product, line.variant)
  return variant ? { productSlug: product.slug, variant: variant.id } : VARIANT_NOT_FOUND
}

export async function applyStockLines(
  lines: readonly StockLine[],
  options: StockUpdateOptions,
): Promise<StockUpdateResult> {
  const { now } = options
  const { byTarget, errors } = resolveStockLines(lines)
  const stamp = {
    at: new Date(now()).toISOString(),
    source: options.source,
    eventId: options.eventId ?? null,
  }
  const wavesStarted: ProductTarget[] = []
  const updated = await mapWithConcurrency(
    [...byTarget.values()],
    UPDATE_CONCURRENCY,
    async ({ target, quantity }): Promise<StockChange> => {
      const { before, after } = await options.stock.change(target, (current) =>
        withQuantity(current, quantity, stamp),
      )
      if (before.quantity !== after.quantity) {
        options.log.info('stock.changed', {
          ...target,
          from: before.quantity,
          to: after.quantity,
          source: options.source,
          eventId: stamp.eventId,
        })
      }
      if (after.waves.episode > before.waves.episode) wavesStarted.push(target)
      return { ...target, quantity, previous: before.quantity }
    },
  )
  await options.audit?.record(
    updated
      .filter((change) => change.previous !== change.quantity)
      .map(({ productSlug, variant, previous, quantity }) => ({
        action: 'stock' as const,
        // why: the trail names what changed: the product, or the product and its variant
        record: { type: 'product' as const, id: targetKey({ productSlug, variant }), productSlug },
        from: previous === null ? null : String(previous),
        to: String(quantity),
      })),
  )
  const waves = new Map<string, StartedWave>()
  for (const target of wavesStarted) {
    options.log.info('stock.waves_started', { ...target, source: options.source })
    let run: WaveRun | null = null
    try {
      run = (await options.startWave?.(target)) ?? null
    } catch (error) {
      // why: the wave stays due in the ledger; the scheduled sweep sends it
      options.log.error('stock.wave_failed', error, { ...target })
    }
    waves.set(targetKey(target), startedWave(run))
  }
  return {
    updated: updated.map((change) => {
      const wave = waves.get(targetKey(change))
      return wave ? { ...change, wave } : change
    }),
    errors,
    wavesStarted,
  }
}
