import type { CollectionCounts } from '../storage/recordCollection.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { unreadableField } from './recordLists.js'

/** §2.4, plus `byVariant`. */
export interface RecordStats {
  total: number
  byStatus: Record<string, number>
  byProduct: Record<string, number>
  /**
   * Records of products with variants, per product slug and variant id
   * (`{"mino-mug": {"ai": 3}}`); present only when some record has a variant.
   */
  byVariant?: Record<string, Record<string, number>>
  /** Blobs that could not be read as records (not counted above); present only when there are some. */
  unreadable?: number
}

export interface ServiceStats {
  notify: RecordStats
  reservations: RecordStats
}

/** The stats and, while an index is being rebuilt, `rebuilding: true` (counts then cover what is indexed). */
export interface StatsAnswer {
  stats: ServiceStats
  rebuilding?: true
}

/**
 * The index's tallies as §2.4 counts: by status and by product, archived records too (D3); and
 * by variant beside them, when some record has one.
 */
function statsOf(counts: CollectionCounts, statuses: readonly string[]): RecordStats {
  const stats: RecordStats = { total: counts.records, byStatus: {}, byProduct: {} }
  const byVariant: Record<string, Record<string, number>> = {}
  for (const [name, n] of Object.entries(counts.tallies)) {
    const [kind, value] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)]
    if (kind === 'status') stats.byStatus[value] = n
    if (kind === 'product') stats.byProduct[value] = n
    if (kind === 'variant' && n > 0) {
      const [productSlug, variant] = [
        value.slice(0, value.indexOf('/')),
        value.slice(value.indexOf('/') + 1),
      ]
      byVariant[productSlug] = { ...byVariant[productSlug], [variant]: n }
    }
  }
  // why: the indexes fold products in whatever order their reads finish; the answer is the same
  // whatever that order was
  stats.byStatus = inOrder(stats.byStatus, statuses)
  stats.byProduct = inOrder(stats.byProduct, [])
  // why: answers keep the §2.4 shape byte for byte where no product has variants
  if (Object.keys(byVariant).length > 0) {
    stats.byVariant = Object.fromEntries(
      Object.entries(inOrder(byVariant, [])).map(([slug, ids]) => [slug, inOrder(ids, [])]),
    )
  }
  return { ...stats, ...unreadableField(counts.unreadable) }
}

/** The same counts keyed in `first`'s order, then the other keys in code-point order. */
function inOrder<T>(counts: Record<string, T>, first: readonly string[]): Record<string, T> {
  const rank = (key: string) => {
    const at = first.indexOf(key)
    return at === -1 ? first.length : at
  }
  return Object.fromEntries(
    Object.entries(counts).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)),
  )
}

/** §4.9: aggregates over every stored subscription and reservation, from the indexes' counts. */
export async function collectStats(repositories: Repositories): Promise<StatsAnswer> {
  const [subscriptions, reservations] = await Promise.all([
    repositories.subscriptions.counts(),
    repositories.reservations.counts(),
  ])
  const stats = {
    notify: statsOf(subscriptions, SUBSCRIPTION_STATUSES),
    reservations: statsOf(reservations, RESERVATION_STATUSES),
  }
  return subscriptions.rebuilding || reservations.rebuilding
    ? { stats, rebuilding: true }
    : { stats }
}
