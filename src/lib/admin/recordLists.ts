import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'

export interface RecordFilters {
  /** Only records with exactly this status. Default: any. */
  status?: string
  /** Only records of this product. Default: every product. */
  productSlug?: string
}

/** The records matching `filters`, read from one product's index when a product is given. */
export async function loadRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
): Promise<T[]> {
  const records = filters.productSlug
    ? await repository.listProduct(filters.productSlug)
    : await repository.list()
  return records.filter(
    (record) =>
      (filters.status === undefined || record.status === filters.status) &&
      (filters.productSlug === undefined || record.productSlug === filters.productSlug),
  )
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
): Promise<T[]> {
  const records = await loadRecords(repository, filters)
  return newestFirst(
    records.filter((record) => record.isArchived !== true),
    'createdAt',
  )
}
