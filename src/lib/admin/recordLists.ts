import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { decodeCursor, encodeCursor, filterDigest, type ListPosition } from './listCursor.js'
import { foldForSearch, matchesSearch } from './recordSearch.js'
import { compareText, SortedOrders, type SortField } from './sortedOrder.js'

export interface RecordFilters {
  /** Which list: the answer's array name (`reservations`, `subscriptions`); names caches and cursors. */
  list: string
  /** Only records with exactly this status. Default: any. */
  status?: string
  /** Only records of this product. Default: every product. */
  productSlug?: string
  /** Only records whose id, name or e-mail contains this (folded, recordSearch.ts). Default: all. */
  q?: string
}

/** What a list read, in order, and what the answer says about how it was read. */
export interface RecordList<T> {
  records: readonly T[]
  /** Blobs of this part of the collection that could not be read as records (skipped). */
  unreadable: number
  /** An index this list is read from is being rebuilt: the records are what exists so far. */
  rebuilding: boolean
}

const orders = new SortedOrders()

/**
 * The records matching `filters` that `keep` keeps, newest first by `field`; read from one
 * product's index when a product is given.
 */
async function sortedRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
  field: SortField,
  keep: (record: T) => boolean,
): Promise<RecordList<T>> {
  const listing = filters.productSlug
    ? await repository.listProduct(filters.productSlug)
    : await repository.list()
  const sorted = orders.sorted(
    `${filters.list}|${filters.productSlug ?? ''}`,
    listing.records,
    field,
  )
  const needle = filters.q ? foldForSearch(filters.q) : ''
  const records = sorted.filter(
    (record) =>
      keep(record) &&
      (filters.status === undefined || record.status === filters.status) &&
      (filters.productSlug === undefined || record.productSlug === filters.productSlug) &&
      (!needle || matchesSearch(record, needle)),
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

/** `{rebuilding: true}` while an index is rebuilt, else nothing. */
export function rebuildingField(rebuilding: boolean): { rebuilding?: true } {
  return rebuilding ? { rebuilding } : {}
}

/** §4.1, §4.2, D3: active (non-archived) records matching `filters`, newest first by createdAt. */
export function listActiveRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
): Promise<RecordList<T>> {
  return sortedRecords(repository, filters, 'createdAt', (record) => record.isArchived !== true)
}

/** §4.3, D3: archived records matching `filters`, most recently archived first. */
export function listArchivedOrder<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
): Promise<RecordList<T>> {
  return sortedRecords(repository, filters, 'archivedAt', (record) => record.isArchived === true)
}

export interface CursorPageRequest extends RecordFilters {
  pageSize: number
  cursor?: string
}

export interface CursorPage<T> extends RecordList<T> {
  /** Every active record matching the filters, on every page. */
  total: number
  /** Where the next page starts; null on the last page. */
  nextCursor: string | null
}

/**
 * One page of an active list (issue 21): the `pageSize` records after `cursor` (from the start
 * without one), newest first, and the cursor of the page after it. `list` names the list in the
 * cursor, so a cursor of another list or other filters answers 400.
 */
export async function activeListPage<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  request: CursorPageRequest,
): Promise<CursorPage<T>> {
  const digest = filterDigest([
    request.list,
    request.status,
    request.productSlug,
    request.q === undefined ? undefined : foldForSearch(request.q),
  ])
  const after = request.cursor === undefined ? null : decodeCursor(request.cursor, digest)
  const list = await listActiveRecords(repository, request)
  const start = after ? firstAfter(list.records, after) : 0
  const records = list.records.slice(start, start + request.pageSize)
  const last = records.at(-1)
  const more = start + records.length < list.records.length
  return {
    ...list,
    records,
    total: list.records.length,
    nextCursor: more && last ? encodeCursor({ time: last.createdAt, id: last.id }, digest) : null,
  }
}

/** Index of the first record (newest first by createdAt, then id) that sorts after `position`. */
function firstAfter(records: readonly AdminRecord[], position: ListPosition): number {
  let low = 0
  let high = records.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const record = records[middle]
    const order =
      compareText(position.time, record.createdAt) || compareText(position.id, record.id)
    // why: newest first, so a record sorts after the position when its key is smaller
    if (order > 0) high = middle
    else low = middle + 1
  }
  return low
}
