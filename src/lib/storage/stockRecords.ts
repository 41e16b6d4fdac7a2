import type { Store } from '@netlify/blobs'
import { STOCK_PREFIX, stockKey } from './blobLayout.js'
import { singlePartition } from './listing/partitioning.js'
import { RecordCollection, type RecordCollectionOptions } from './recordCollection.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * Stock per product, `stock/{productSlug}`, or per variant of a product with variants,
 * `stock/{productSlug}~{variantId}`: one record holding the quantity, where it came from, the
 * automatic-notice settings and the wave ledger of that product or variant, so that a stock
 * change, the decision to start waves and the progress of the waves are one compare-and-swap
 * write.
 */

/** Where a quantity came from. */
export const STOCK_SOURCES = ['admin', 'webhook', 'feed'] as const
export type StockSource = (typeof STOCK_SOURCES)[number]

/** A product's automatic restock notice (POST /api/admin/notify/auto). */
export interface AutoNotice {
  enabled: boolean
  emailTitle: string
  emailBody: string
  /** Subscribers notified per unit in stock. */
  perUnit: number
  /** Minutes between two waves. */
  intervalMinutes: number
}

/**
 * Where the waves of a product stand. A rise from 0 (or unknown) starts an episode (`episode`
 * + 1, `nextWave` 1, `dueAt` now); each wave sent moves `nextWave` on and `dueAt` by the
 * interval; stock 0 or nobody left waiting sets `dueAt` to null. Wave `(episode, nextWave)` has
 * one notification id, so a wave run twice (a crash after sending, two sweeps) is sent once.
 */
export interface WaveLedger {
  episode: number
  nextWave: number
  /** When the next wave is due (ISO), or null when none is. */
  dueAt: string | null
}

export interface StockRecord {
  productSlug: string
  /** The variant this record is of (its id); absent for a product without variants. */
  variant?: string
  /** Units in stock, or null while no source has reported one. */
  quantity: number | null
  /** When the quantity was last set (ISO), or null. */
  updatedAt: string | null
  source: StockSource | null
  /** Id of the webhook event that last set the quantity, or null. */
  lastEventId: string | null
  /** Automatic-notice settings, or null while staff set none. */
  auto: AutoNotice | null
  waves: WaveLedger
}

/** A product without variants, or one variant of a product. */
export interface StockRef {
  productSlug: string
  variant?: string
}

/** The record of a product (or variant) nothing has been stored for yet. */
export function emptyStockRecord({ productSlug, variant }: StockRef): StockRecord {
  return {
    productSlug,
    ...(variant === undefined ? {} : { variant }),
    quantity: null,
    updatedAt: null,
    source: null,
    lastEventId: null,
    auto: null,
    waves: { episode: 0, nextWave: 1, dueAt: null },
  }
}

function isStockRecord(value: unknown): value is StockRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  return (
    typeof record.productSlug === 'string' &&
    (record.variant === undefined || typeof record.variant === 'string') &&
    (record.quantity === null || typeof record.quantity === 'number') &&
    typeof record.waves === 'object' &&
    record.waves !== null
  )
}

export class StockRepository extends RecordCollection<StockRecord, StockRef> {
  constructor(store: Store, options?: RecordCollectionOptions) {
    super(
      store,
      {
        name: 'stock',
        prefix: STOCK_PREFIX,
        keyOf: ({ productSlug, variant }) =>
          isUsableRecordId(productSlug) && (variant === undefined || isUsableRecordId(variant))
            ? stockKey(productSlug, variant)
            : null,
        isRecord: isStockRecord,
        partitioning: singlePartition(STOCK_PREFIX),
      },
      options,
    )
  }

  /**
   * Applies `change` to the record of the product (or variant) `ref` names by compare-and-swap,
   * creating the record (`onlyIfNew`) from `emptyStockRecord` when there is none. Answers what
   * was read and what is stored afterwards; `change` may run more than once, each time on the
   * record as it then is.
   */
  async change(
    ref: StockRef,
    change: (current: StockRecord) => StockRecord,
  ): Promise<{ before: StockRecord; after: StockRecord }> {
    for (;;) {
      let before: StockRecord | null = null
      const after = await this.update(ref, (current) => {
        before = current
        return change(current)
      })
      if (after && before) return { before, after }
      const empty = emptyStockRecord(ref)
      const created = change(empty)
      if (await this.create(ref, created)) return { before: empty, after: created }
    }
  }
}

export function stockRepository(store: Store, options?: RecordCollectionOptions): StockRepository {
  return new StockRepository(store, options)
}
