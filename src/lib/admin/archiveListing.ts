import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { loadRecords, newestFirst, type RecordFilters } from './recordLists.js'

export interface PageRequest {
  /** 1-based page number (validated by the endpoint). */
  page: number
  /** Items per page, 1..100 (validated by the endpoint). */
  pageSize: number
}

export interface ArchivePage<T> {
  items: T[]
  total: number
  page: number
  pageSize: number
  totalPages: number
  /** Blobs of this part of the collection that could not be read as records (skipped). */
  unreadable: number
  /** Whether an index of this part is being rebuilt (the page then holds what is indexed). */
  rebuilding: boolean
}

/**
 * §4.3, D3, D5: archived records matching `filters`, most recently archived first, one page of
 * them. A page beyond the last is empty but still reports the true total and page count.
 */
export async function listArchivedRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  query: RecordFilters & PageRequest,
): Promise<ArchivePage<T>> {
  const { records, unreadable, rebuilding } = await loadRecords(repository, query)
  const archived = newestFirst(
    records.filter((record) => record.isArchived === true),
    'archivedAt',
  )
  const start = (query.page - 1) * query.pageSize
  return {
    items: archived.slice(start, start + query.pageSize),
    total: archived.length,
    page: query.page,
    pageSize: query.pageSize,
    totalPages: Math.ceil(archived.length / query.pageSize),
    unreadable,
    rebuilding,
  }
}
