import { foldForSearch } from '../storage/listing/recordSearch.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { listArchivedOrder, type RecordFilters } from './recordLists.js'

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
  /** An index this list is read from is being rebuilt: the records are what exists so far. */
  rebuilding: boolean
}

/**
 * §4.3, D3, D5: archived records matching `filters`, most recently archived first, one page of
 * them: of every product from the time view (its search rows find the page, the segments
 * holding it are read), of one product from its index (no read per record; the order is kept
 * per instance, sortedOrder.ts). A page beyond the last is empty but still reports the true
 * total and page count.
 */
export async function listArchivedRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  query: RecordFilters & PageRequest,
): Promise<ArchivePage<T>> {
  const start = (query.page - 1) * query.pageSize
  if (query.productSlug === undefined) {
    const viewed = await repository.page({
      list: 'archived',
      status: query.status,
      needle: query.q ? foldForSearch(query.q) : undefined,
      start: { offset: start },
      limit: query.pageSize,
    })
    if (viewed) {
      return {
        items: viewed.records,
        total: viewed.total,
        page: query.page,
        pageSize: query.pageSize,
        totalPages: Math.ceil(viewed.total / query.pageSize),
        unreadable: viewed.unreadable,
        rebuilding: false,
      }
    }
  }
  const { records, unreadable, rebuilding } = await listArchivedOrder(repository, query)
  return {
    items: records.slice(start, start + query.pageSize),
    total: records.length,
    page: query.page,
    pageSize: query.pageSize,
    totalPages: Math.ceil(records.length / query.pageSize),
    unreadable,
    rebuilding,
  }
}
