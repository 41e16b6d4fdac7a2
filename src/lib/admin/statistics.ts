import type { Repositories } from '../storage/repositories.js'

/** §2.4. */
export interface RecordStats {
  total: number
  byStatus: Record<string, number>
  byProduct: Record<string, number>
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

/** §4.9: aggregates over every stored subscription and reservation. */
export async function collectStats(repositories: Repositories): Promise<ServiceStats> {
  const [subscriptions, reservations] = await Promise.all([
    repositories.subscriptions.list(),
    repositories.reservations.list(),
  ])
  return { notify: countRecords(subscriptions), reservations: countRecords(reservations) }
}
