import type { Listing } from '../storage/recordCollection.js'
import type { Repositories } from '../storage/repositories.js'
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

/** Counts records by status and product; archived records count too (D3). */
export function countRecords(
  records: readonly { status: string; productSlug: string }[],
): RecordStats {
  const stats: RecordStats = { total: 0, byStatus: {}, byProduct: {} }
  for (const { status, productSlug } of records) {
    stats.total += 1
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1
    stats.byProduct[productSlug] = (stats.byProduct[productSlug] ?? 0) + 1
  }
  return stats
}

function statsOf(listing: Listing<{ status: string; productSlug: string }>): RecordStats {
  return { ...countRecords(listing.records), ...unreadableField(listing.unreadableKeys.length) }
}

/** §4.9: aggregates over every stored subscription and reservation. */
export async function collectStats(repositories: Repositories): Promise<ServiceStats> {
  const [subscriptions, reservations] = await Promise.all([
    repositories.subscriptions.list(),
    repositories.reservations.list(),
  ])
  return { notify: statsOf(subscriptions), reservations: statsOf(reservations) }
}
