import { listProducts } from '../productCatalogue.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import { emptyStockRecord, type AutoNotice, type StockRepository } from '../storage/stockRecords.js'

/** One product's line of POST /api/admin/stock/list. */
export interface StockRow {
  productSlug: string
  /** Units in stock, or null while no source has reported one. */
  quantity: number | null
  /** When the quantity last changed, or null. */
  updatedAt: string | null
  /** Pending, non-archived subscribers: who a send would e-mail. */
  waiting: number
  /** Automatic-notice settings, or null while none are set. */
  auto: AutoNotice | null
  /** When the next automatic wave is due, or null when none is. */
  nextWaveAt: string | null
}

/** Every product of the catalogue with its stock, waiting subscribers and automatic notice. */
export async function listStock(sources: {
  stock: StockRepository
  subscriptions: SubscriptionRepository
}): Promise<StockRow[]> {
  const [stock, subscriptions] = await Promise.all([
    sources.stock.list(),
    sources.subscriptions.list(),
  ])
  const waiting = new Map<string, number>()
  for (const subscription of subscriptions.records) {
    if (subscription.status !== 'pending' || subscription.isArchived) continue
    waiting.set(subscription.productSlug, (waiting.get(subscription.productSlug) ?? 0) + 1)
  }
  const records = new Map(stock.records.map((record) => [record.productSlug, record]))
  return listProducts().map(({ slug }) => {
    const record = records.get(slug) ?? emptyStockRecord(slug)
    return {
      productSlug: slug,
      quantity: record.quantity,
      updatedAt: record.updatedAt,
      waiting: waiting.get(slug) ?? 0,
      auto: record.auto,
      nextWaveAt: record.auto?.enabled ? record.waves.dueAt : null,
    }
  })
}
