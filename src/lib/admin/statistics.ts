import type { CollectionCounts } from '../storage/recordCollection.js'
import type { ProductRecordRepository, Repositories } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { unreadableField } from './recordLists.js'

/** §2.4. */
export interface RecordStats {
  total: number
  byStatus: Record<string, number>
  byProduct: Record<string, number>
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

/** The index's tallies as §2.4 counts: by status and by product, archived records too (D3). */
function statsOf(counts: CollectionCounts): RecordStats {
  const stats: RecordStats = { total: counts.records, byStatus: {}, byProduct: {} }
  for (const [name, n] of Object.entries(counts.tallies)) {
    const [kind, value] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)]
    if (kind === 'status') stats.byStatus[value] = n
    if (kind === 'product') stats.byProduct[value] = n
  }
  return { ...stats, ...unreadableField(counts.unreadable) }
}

/**
 * §2.4 from the counters kept at every write (recordCounters.ts) and the time view's list of
 * unreadable blobs: a few blobs whatever the size of the shop. Null while either is not
 * complete (the index's counts answer instead).
 */
async function countedStats<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
): Promise<RecordStats | null> {
  const [groups, unreadable] = await Promise.all([
    repository.groupCounts(),
    repository.unreadableCount(),
  ])
  if (groups === null || unreadable === null) return null
  const stats: RecordStats = { total: 0, byStatus: {}, byProduct: {} }
  for (const { values, count } of groups) {
    if (count === 0) continue
    stats.total += count
    stats.byStatus[values.status] = (stats.byStatus[values.status] ?? 0) + count
    stats.byProduct[values.product] = (stats.byProduct[values.product] ?? 0) + count
  }
  return { ...stats, ...unreadableField(unreadable) }
}

/** §4.9: aggregates over every stored subscription and reservation, from the counters (or the indexes' counts). */
export async function collectStats(repositories: Repositories): Promise<StatsAnswer> {
  const [notify, reservations] = await Promise.all([
    countedStats(repositories.subscriptions),
    countedStats(repositories.reservations),
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
  const stats = { notify: statsOf(subscriptions), reservations: statsOf(reservations) }
  return subscriptions.rebuilding || reservations.rebuilding
    ? { stats, rebuilding: true }
    : { stats }
}
