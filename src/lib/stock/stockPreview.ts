import { emptyWaitingCount, waitingCounts } from '../compliance/restockRecipients.js'
import { targetKey } from '../productCatalogue.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import { emptyStockRecord, type StockRepository } from '../storage/stockRecords.js'
import type { SuppressionRepository } from '../storage/suppressionRepository.js'
import type { StockLine } from './stockSchemas.js'
import { resolveStockLines, withQuantity, type StockItemError } from './stockUpdates.js'

/**
 * What stock lines would change, before anything is stored (POST /api/admin/stock/preview, the
 * dashboard's CSV import shows it and asks before applying): per product the quantity from and
 * to, and how many waiting subscribers the automatic wave it would start e-mails at once. The
 * same rules decide as for the change itself: `withQuantity` whether a wave starts, the waiting
 * rule (compliance/restockRecipients.ts) who it could reach.
 */

export interface StockPreviewLine {
  productSlug: string
  /** The variant (its id); absent for a product without variants. */
  variant?: string
  /** The quantity now, or null when it is unknown. */
  previous: number | null
  quantity: number
  /** Subscribers the first wave would e-mail at once: 0 when the change starts no wave. */
  notify: number
}

export interface StockPreview {
  /** One per product (or variant), in the order the lines last named it. */
  changes: StockPreviewLine[]
  errors: StockItemError[]
}

export async function previewStockLines(
  lines: readonly StockLine[],
  sources: {
    stock: StockRepository
    subscriptions: SubscriptionRepository
    suppressions: SuppressionRepository
  },
  now: () => number,
): Promise<StockPreview> {
  const { byTarget, errors } = resolveStockLines(lines)
  const [stock, counts] = await Promise.all([sources.stock.list(), waitingCounts(sources)])
  const records = new Map(stock.records.map((record) => [targetKey(record), record]))
  const stamp = { at: new Date(now()).toISOString(), source: 'admin' as const, eventId: null }
  const changes = [...byTarget].map(([key, { target, quantity }]): StockPreviewLine => {
    const current = records.get(key) ?? emptyStockRecord(target)
    const after = withQuantity(current, quantity, stamp)
    const startsWave = after.waves.episode > current.waves.episode
    const waiting = (counts.get(key) ?? emptyWaitingCount()).waiting
    const perUnit = after.auto?.perUnit ?? 0
    return {
      ...target,
      previous: current.quantity,
      quantity,
      notify: startsWave ? Math.min(quantity * perUnit, waiting) : 0,
    }
  })
  return { changes, errors }
}
