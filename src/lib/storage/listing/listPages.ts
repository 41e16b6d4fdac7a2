import type { CountsRead, RecordCounters } from './recordCounters.js'
import {
  findRow,
  inOrder,
  locate,
  pageAfter,
  type Position,
  type Selection,
  type Start,
  type ViewSnapshot,
} from './timeReads.js'
import { DamagedViewError } from './timeView.js'

/**
 * Pages of a list read from the time view (timeReads.ts) and, for their totals, the counters
 * (recordCounters.ts): what the admin lists of reservations and subscriptions answer from.
 */

/** One page of a list: which list, which status, which search, from where, how many. */
export interface ListPageQuery {
  /** `active` (newest first by creation) or `archived` (by archiving). */
  list: 'active' | 'archived'
  /** Only this status. Default: any. */
  status?: string
  /** Folded search text (recordSearch.ts) the record's id, name or e-mail contains. Default: none. */
  needle?: string
  /** After the last record of the page before (a cursor), or from an offset (numbered pages). */
  start: Start
  limit: number
}

export interface ListPageAnswer<T> {
  records: T[]
  /** Every record of the list the query matches. */
  total: number
  /** Whether records follow the page. */
  more: boolean
  /** Blobs of the collection that are not readable records. */
  unreadable: number
}

/** What a page is read from: a view snapshot, and the counters when they are exact. */
export interface PageSources {
  snapshot: ViewSnapshot
  counters: RecordCounters | null
  counts: () => Promise<CountsRead | null>
}

/** The values a list and a status select in a family (`[list, status]`). */
function selectionOf(query: Pick<ListPageQuery, 'list' | 'status' | 'needle'>): Selection {
  return { list: query.list, split: [query.status], needle: query.needle || undefined }
}

/** The counters' count of a list (and status): archived or not is the counters' `archived` value. */
function countedTotal(
  counters: RecordCounters,
  counts: CountsRead,
  query: Pick<ListPageQuery, 'list' | 'status'>,
): number {
  let total = 0
  for (const [key, amounts] of counts.groups) {
    const { values, count } = counters.describe(key, amounts)
    if (values.archived !== query.list) continue
    if (query.status !== undefined && values.status !== query.status) continue
    total += count
  }
  return total
}

/** Unreadable blobs of the collection: those the view knows, and those of pending writes. */
function unreadableOf(snapshot: ViewSnapshot): number {
  let unreadable = 0
  for (const { unreadable: keys } of Object.values(snapshot.catalog.partitions)) {
    unreadable += keys.filter((key) => !snapshot.pending.has(key)).length
  }
  for (const entry of snapshot.pending.values()) if (entry?.record === null) unreadable += 1
  return unreadable
}

/**
 * The page `query` asks for, or null when it cannot be answered from the view (the counters a
 * cursor page's total needs are not exact, or a blob of the view is damaged: callers read the
 * per-partition index instead).
 */
export async function readListPage<T>(
  sources: PageSources,
  query: ListPageQuery,
): Promise<ListPageAnswer<T> | null> {
  const { snapshot } = sources
  const selection = selectionOf(query)
  try {
    if (selection.needle || 'offset' in query.start) {
      const found = await locate(snapshot, selection, query.start, query.limit)
      return { ...found, records: found.records as T[], unreadable: unreadableOf(snapshot) }
    }
    const counts = sources.counters ? await sources.counts() : null
    if (!counts || !sources.counters) return null
    const page = await pageAfter(snapshot, selection, query.start.after, query.limit)
    return {
      records: page.records as T[],
      more: page.more,
      total: countedTotal(sources.counters, counts, query),
      unreadable: unreadableOf(snapshot),
    }
  } catch (error) {
    if (!(error instanceof DamagedViewError)) throw error
    await snapshot.view.damaged(error, snapshot.catalog)
    return null
  }
}

/** Every record of a list in order (exports); false when the view was found damaged midway. */
export async function visitList<T>(
  snapshot: ViewSnapshot,
  query: Pick<ListPageQuery, 'list' | 'status' | 'needle'>,
  visit: (record: T) => void | Promise<void>,
): Promise<boolean> {
  try {
    for await (const record of inOrder(snapshot, selectionOf(query))) await visit(record as T)
    return true
  } catch (error) {
    if (!(error instanceof DamagedViewError)) throw error
    await snapshot.view.damaged(error, snapshot.catalog)
    return false
  }
}

/** The key of the record with this id in any list (pending writes first), null when none; undefined when the view was damaged. */
export async function findKeyById(
  snapshot: ViewSnapshot,
  id: string,
): Promise<string | null | undefined> {
  const { layout } = snapshot.view
  for (const [key, entry] of snapshot.pending) {
    if (entry?.record && layout.id(entry.record) === id) return key
  }
  try {
    const row = await findRow(
      snapshot,
      (candidate) => candidate[3] === id && !snapshot.pending.has(candidate[0]),
    )
    return row ? row[0] : null
  } catch (error) {
    if (!(error instanceof DamagedViewError)) throw error
    await snapshot.view.damaged(error, snapshot.catalog)
    return undefined
  }
}

export type { Position }
