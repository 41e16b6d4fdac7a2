import type { CollectionCounts } from '../storage/recordCollection.js'
import { RESERVATION_STATUSES, SUBSCRIPTION_STATUSES } from '../storage/records.js'
import type { ProductRecordRepository, Repositories } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
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

/** What the statistics are made of: the tallies of an index, or the same built from counters. */
type TalliedCounts = Pick<CollectionCounts, 'records' | 'tallies' | 'unreadable'>

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
function statsOf(counts: TalliedCounts, statuses: readonly string[]): RecordStats {
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

/**
 * §2.4 from the counters kept at every write (recordCounters.ts) and the time view's list of
 * unreadable blobs: a few blobs whatever the size of the shop. Null while either is not
 * complete (the index's counts answer instead).
 */
async function countedStats<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  statuses: readonly string[],
): Promise<RecordStats | null> {
  const [groups, unreadable] = await Promise.all([
    repository.groupCounts(),
    repository.unreadableCount(),
  ])
  if (groups === null || unreadable === null) return null
  const counts: TalliedCounts = { records: 0, tallies: {}, unreadable }
  const add = (name: string, n: number) => (counts.tallies[name] = (counts.tallies[name] ?? 0) + n)
  for (const { values, count } of groups) {
    if (count === 0) continue
    counts.records += count
    add(`status:${values.status}`, count)
    add(`product:${values.product}`, count)
    if (values.variant) add(`variant:${values.product}/${values.variant}`, count)
  }
  return statsOf(counts, statuses)
}

/** §4.9: aggregates over every stored subscription and reservation, from the counters (or the indexes' counts). */
export async function collectStats(repositories: Repositories): Promise<StatsAnswer> {
  const [notify, reservations] = await Promise.all([
    countedStats(repositories.subscriptions, SUBSCRIPTION_STATUSES),
    countedStats(repositories.reservations, RESERVATION_STATUSES),
  ])
  if (notify && reservations) return { stats: { notify, reservations } }
  return indexedStats(repositories)
}

/** §4.9 from the indexes' counts (the bases' metadata): while the counters are not complete. */
async function indexedStats(repositories: Repositories): Promise<StatsAnswer> {
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
