import type { ProductRecordRepository } from '../storage/repositories.js'
import type { AdminRecord } from './adminResources.js'
import { decodeCursor, encodeCursor, filterDigest, type ListPosition } from './listCursor.js'
import { foldForSearch, matchesSearch } from '../storage/listing/recordSearch.js'
import { compareNewestFirst, compareText, SortedOrders, type SortField } from './sortedOrder.js'

export interface RecordFilters {
  /** Which list: the answer's array name (`reservations`, `subscriptions`); names caches and cursors. */
  list: string
  /** Only records with exactly this status. Default: any. */
  status?: string
  /** Only records of this product. Default: every product. */
  productSlug?: string
  /** Only records of this variant (its id) of the product. Default: any variant. */
  variant?: string
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
 * How a list reads a whole collection: `kept` keeps each base in the instance (the next page is
 * two requests); `scanned` reads one base at a time and keeps only the matching records (a
 * background export, which has no next request). A product's list reads its one base either way.
 */
export type CollectionRead = 'kept' | 'scanned'

/** Whether a record is one of `filters`' (status, product, variant, search) that `keep` keeps. */
export function recordMatcher<T extends AdminRecord>(
  filters: Omit<RecordFilters, 'list'>,
  keep: (record: T) => boolean,
): (record: T) => boolean {
  const needle = filters.q ? foldForSearch(filters.q) : ''
  return (record) =>
    keep(record) &&
    (filters.status === undefined || record.status === filters.status) &&
    (filters.productSlug === undefined || record.productSlug === filters.productSlug) &&
    (filters.variant === undefined || record.variant === filters.variant) &&
    (!needle || matchesSearch(record, needle))
}

/**
 * The records matching `filters` that `keep` keeps, newest first by `field`; read from one
 * product's index when a product is given.
 */
async function sortedRecords<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
  field: SortField,
  keep: (record: T) => boolean,
  read: CollectionRead,
): Promise<RecordList<T>> {
  const matches = recordMatcher(filters, keep)
  if (read === 'scanned' && filters.productSlug === undefined) {
    const records: T[] = []
    const scanned = await repository.scan((record) => {
      if (matches(record)) records.push(record)
    })
    return {
      records: records.sort(compareNewestFirst(field)),
      unreadable: scanned.unreadableKeys.length,
      rebuilding: scanned.rebuilding === true,
    }
  }
  const listing = filters.productSlug
    ? await repository.listProduct(filters.productSlug)
    : await repository.list()
  const sorted = orders.sorted(
    `${filters.list}|${filters.productSlug ?? ''}`,
    listing.records,
    field,
  )
  return {
    records: sorted.filter(matches),
    unreadable: listing.unreadableKeys.length,
    rebuilding: listing.rebuilding === true,
  }
}

/**
 * How many active records of the whole collection match `filters` (status only; a product's
 * list is bounded by its one base), from the counters, or from the index counts while they are
 * not complete: no base is read. Null when a base predates the `active:` / `archived:` tallies
 * (written before them; the next write of that product rewrites it): the count is then only
 * known by reading the records.
 */
export async function activeRecordCount<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: Pick<RecordFilters, 'status'>,
): Promise<number | null> {
  const groups = await repository.groupCounts()
  if (groups !== null) {
    return groups
      .filter(({ values }) => values.archived === 'active')
      .filter(({ values }) => filters.status === undefined || values.status === filters.status)
      .reduce((sum, group) => sum + group.count, 0)
  }
  const { records, tallies } = await repository.counts()
  let tallied = 0
  let active = 0
  for (const [name, n] of Object.entries(tallies)) {
    const [kind, status] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)]
    if (kind !== 'active' && kind !== 'archived') continue
    tallied += n
    if (kind === 'active' && (filters.status === undefined || status === filters.status)) {
      active += n
    }
  }
  return tallied === records ? active : null
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
  read: CollectionRead = 'kept',
): Promise<RecordList<T>> {
  const active = (record: T) => record.isArchived !== true
  return sortedRecords(repository, filters, 'createdAt', active, read)
}

/** §4.3, D3: archived records matching `filters`, most recently archived first. */
export function listArchivedOrder<T extends AdminRecord>(
  repository: ProductRecordRepository<T>,
  filters: RecordFilters,
  read: CollectionRead = 'kept',
): Promise<RecordList<T>> {
  const archived = (record: T) => record.isArchived === true
  return sortedRecords(repository, filters, 'archivedAt', archived, read)
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
 * One page of an active list: the `pageSize` records after `cursor` (from the start
 * without one), newest first, and the cursor of the page after it. `list` names the list in the
 * cursor, so a cursor of another list or other filters answers 400. A page of every product is
 * read from the time view (the few segments that hold it), one product's from its index.
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
    // why: a list without a variant filter keeps the cursors it always made
    ...(request.variant === undefined ? [] : [request.variant]),
  ])
  const after = request.cursor === undefined ? null : decodeCursor(request.cursor, digest)
  if (request.productSlug === undefined) {
    const viewed = await repository.page({
      list: 'active',
      status: request.status,
      needle: request.q ? foldForSearch(request.q) : undefined,
      start: { after: after && { time: after.time, id: after.id } },
      limit: request.pageSize,
    })
    if (viewed) {
      const last = viewed.records.at(-1)
      return {
        records: viewed.records,
        total: viewed.total,
        unreadable: viewed.unreadable,
        rebuilding: false,
        nextCursor:
          viewed.more && last ? encodeCursor({ time: last.createdAt, id: last.id }, digest) : null,
      }
    }
  }
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
