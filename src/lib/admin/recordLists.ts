import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'

export interface RecordFilters {
  /** Only records with exactly this status. Default: any. */
  status?: string
  /** Only records of this product. Default: every product. */
  productSlug?: string
}

/**
 * The records matching `filters`, read from one product's index when a product is given, and
 * how many blobs in that part could not be read as records (skipped, logged by the repository).
 */
export async function loadRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
): Promise<{ records: T[]; unreadable: number; rebuilding: boolean }> {
  const listing = filters.productSlug
    ? await repository.listProduct(filters.productSlug)
    : await repository.list()
  const records = listing.records.filter(
    (record) =>
      (filters.status === undefined || record.status === filters.status) &&
      (filters.productSlug === undefined || record.productSlug === filters.productSlug),
  )
  return {
    records,
    unreadable: listing.unreadableKeys.length,
    rebuilding: listing.rebuilding === true,
  }
}

/** `{unreadable: n}` when some blobs could not be read, else nothing: answers keep their shape. */
export function unreadableField(unreadable: number): { unreadable?: number } {
  return unreadable > 0 ? { unreadable } : {}
}

/** `{rebuilding: true}` while an index is being rebuilt, else nothing: answers keep their shape. */
export function rebuildingField(rebuilding: boolean): { rebuilding?: true } {
  return rebuilding ? { rebuilding } : {}
}

/** Sorts by `field` (ISO timestamps), newest first; ties by id, so the order is stable. */
export function newestFirst<T extends AdminRecord>(
  records: T[],
  field: 'createdAt' | 'archivedAt',
) {
  return records.sort(
    (a, b) => compareText(b[field] ?? '', a[field] ?? '') || compareText(b.id, a.id),
  )
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** §4.1, §4.2, D3: active (non-archived) records matching `filters`, newest first by createdAt. */
export async function listActiveRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
): Promise<{ records: T[]; unreadable: number; rebuilding: boolean }> {
  const { records, unreadable, rebuilding } = await loadRecords(repository, filters)
  return {
    records: newestFirst(
      records.filter((record) => record.isArchived !== true),
      'createdAt',
    ),
    unreadable,
    rebuilding,
  }
}
