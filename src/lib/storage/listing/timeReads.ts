import { mapWithConcurrency } from '../../concurrency.js'
import type { IndexEntry } from './indexBase.js'
import { newestFirst, runIndexOf, type RunItem } from './sortedRuns.js'
import {
  matchingRows,
  needleOf,
  rowAt,
  rowCount,
  type ChunkRows,
  type SearchRow,
} from './searchChunks.js'
import type { Catalog, ChunkRef, SegmentRef } from './timeBlobs.js'
import { DamagedViewError, rowItem, type TimeView } from './timeView.js'

/**
 * Reading a time view (timeView.ts) together with the writes not yet folded into it:
 *
 * - `pageAfter`: the records of a list after a position, merging its families newest first;
 *   each family reads its newest segment (or the one holding the position), and an older one
 *   only when the page reaches it.
 * - `locate`: a page found by the search rows — every row of the list, filtered by `q`, counted,
 *   and the page's records read from the segments that hold them (`q`, numbered pages).
 * - `inOrder`: every record of a list in order, a segment of each family at a time (exports).
 *
 * Pending writes (`Pending`) replace what the view holds of their records.
 */

/** What of a list to read: its name, the values its families must have, and a search. */
export interface Selection {
  list: string
  /** Values after the list name a family must have; undefined: any (`[status]`). */
  split: readonly (string | undefined)[]
  /** Folded text the search text must contain (recordSearch.ts); '' or none: every record. */
  needle?: string
}

/** A position in a list: the last record seen (newest first by time, then id). */
export interface Position {
  time: string
  id: string
}

/** Records of writes not yet in the view, read now: key → entry, or null when the record is gone. */
export type Pending = ReadonlyMap<string, IndexEntry | null>

/** A snapshot to read: the view, a complete catalog, the pending writes. */
export interface ViewSnapshot {
  view: TimeView
  catalog: Catalog
  pending: Pending
}

/** Families of the catalog that `selection` reads, by index. */
function familiesOf(catalog: Catalog, selection: Selection): Set<number> {
  const chosen = new Set<number>()
  catalog.families.forEach((family, index) => {
    if (family[0] !== selection.list) return
    if (selection.split.every((value, i) => value === undefined || family[i + 1] === value)) {
      chosen.add(index)
    }
  })
  return chosen
}

/** Whether `item` sorts after `position` (is older). */
function isAfter(item: RunItem, position: Position | null): boolean {
  if (position === null) return true
  return item.time < position.time || (item.time === position.time && item.id < position.id)
}

/** The readable pending records that `selection` lists, newest first. */
function pendingOf(snapshot: ViewSnapshot, selection: Selection): unknown[] {
  const { layout } = snapshot.view
  const records: unknown[] = []
  for (const entry of snapshot.pending.values()) {
    if (entry === null || entry.record === null) continue
    const family = layout.family(entry.record)
    if (family[0] !== selection.list) continue
    if (!selection.split.every((value, i) => value === undefined || family[i + 1] === value))
      continue
    if (selection.needle && !layout.searchText(entry.record).includes(selection.needle)) continue
    records.push(entry.record)
  }
  return records.sort((a, b) => newestFirst(itemOf(snapshot.view, a), itemOf(snapshot.view, b)))
}

function itemOf(view: TimeView, record: unknown): RunItem {
  const { layout } = view
  return { key: layout.key(record), time: layout.sortTime(record), id: layout.id(record) }
}

/** One family's records newest first, from a position, reading a segment when it is reached. */
class FamilyCursor {
  #runs: SegmentRef[]
  #run: number
  #records: Iterator<unknown> = [].values()
  #current: { record: unknown } | null = null
  readonly #snapshot: ViewSnapshot
  readonly #after: Position | null
  readonly #keep: boolean

  constructor(snapshot: ViewSnapshot, runs: SegmentRef[], after: Position | null, keep: boolean) {
    this.#snapshot = snapshot
    this.#runs = runs
    this.#after = after
    this.#keep = keep
    this.#run = after === null ? runs.length - 1 : runIndexOf(runs, after.time)
  }

  /** The next record (not consumed), or null at the family's end. */
  async peek(): Promise<unknown> {
    if (this.#current) return this.#current.record
    const { view, pending } = this.#snapshot
    for (;;) {
      for (let next = this.#records.next(); !next.done; next = this.#records.next()) {
        const item = itemOf(view, next.value)
        if (pending.has(item.key) || !isAfter(item, this.#after)) continue
        this.#current = { record: next.value }
        return next.value
      }
      if (this.#run < 0) return null
      const ref = this.#runs[this.#run]
      // why: a page keeps its segments parsed for the next request; a walk of the whole list
      // parses a record when it is reached, so a segment waits as bytes, not as objects
      this.#records = this.#keep
        ? (await view.segment(ref)).values()
        : await view.segmentRecords(ref)
      this.#run -= 1
    }
  }

  take(): void {
    this.#current = null
  }
}

/**
 * The records of `selection` after `after`, in order: its families merged newest first with
 * the pending writes, each family reading a segment when it is reached (kept in the instance
 * for the next request when `keep`).
 */
async function* merged(
  snapshot: ViewSnapshot,
  selection: Selection,
  after: Position | null,
  keep: boolean,
): AsyncGenerator<unknown> {
  const families = familiesOf(snapshot.catalog, selection)
  const cursors = [...families].map(
    (family) =>
      new FamilyCursor(
        snapshot,
        snapshot.catalog.segments.filter((ref) => ref.family === family),
        after,
        keep,
      ),
  )
  const pending = pendingOf(snapshot, selection).filter((record) =>
    isAfter(itemOf(snapshot.view, record), after),
  )
  const matches = (record: unknown) =>
    !selection.needle || snapshot.view.layout.searchText(record).includes(selection.needle)
  // why: the first segment of every family is needed to know which record is newest
  await Promise.all(cursors.map((cursor) => cursor.peek()))
  for (;;) {
    let best: { record: unknown; cursor: FamilyCursor | null } | null = null
    for (const cursor of cursors) {
      const record = await cursor.peek()
      if (record === null) continue
      if (
        !best ||
        newestFirst(itemOf(snapshot.view, record), itemOf(snapshot.view, best.record)) < 0
      ) {
        best = { record, cursor }
      }
    }
    const waiting = pending[0]
    if (
      waiting !== undefined &&
      (!best || newestFirst(itemOf(snapshot.view, waiting), itemOf(snapshot.view, best.record)) < 0)
    ) {
      best = { record: waiting, cursor: null }
    }
    if (!best) return
    if (best.cursor) best.cursor.take()
    else pending.shift()
    if (matches(best.record)) yield best.record
  }
}

/** Up to `limit` records of `selection` after `after`, in order, and whether more follow. */
export async function pageAfter(
  snapshot: ViewSnapshot,
  selection: Selection,
  after: Position | null,
  limit: number,
): Promise<{ records: unknown[]; more: boolean }> {
  const records: unknown[] = []
  for await (const record of merged(snapshot, selection, after, true)) {
    records.push(record)
    if (records.length > limit) break
  }
  return { records: records.slice(0, limit), more: records.length > limit }
}

/**
 * Every record of `selection` in order, a segment of each family at a time, none kept: a
 * whole list read once would fill the instance's budget with blobs no page reads again.
 */
export function inOrder(snapshot: ViewSnapshot, selection: Selection): AsyncGenerator<unknown> {
  return merged(snapshot, selection, null, false)
}

/** Where a page found by the search rows starts: after a position, or at an offset. */
export type Start = { after: Position | null } | { offset: number }

/**
 * The search rows of `refs` in order, a chunk at a time (the next one read while this one is
 * looked at), so a reader holds two chunks at most, never every row of a list.
 */
async function* chunksInOrder(
  view: TimeView,
  refs: readonly ChunkRef[],
): AsyncGenerator<ChunkRows> {
  const read = (index: number) => {
    const rows = view.chunk(refs[index])
    // why: a read ahead that fails is answered when it is reached, or not at all
    rows.catch(() => undefined)
    return rows
  }
  let next = refs.length > 0 ? read(0) : null
  for (let index = 0; next !== null; index++) {
    const rows = await next
    next = index + 1 < refs.length ? read(index + 1) : null
    yield rows
  }
}

/**
 * The page of `selection` found by the list's search rows: every matching row counted
 * (`total`), only the `limit` ones from `start` kept, and their records read from the segments
 * holding them.
 */
export async function locate(
  snapshot: ViewSnapshot,
  selection: Selection,
  start: Start,
  limit: number,
): Promise<{ records: unknown[]; total: number; more: boolean }> {
  const { view, catalog } = snapshot
  const families = familiesOf(catalog, selection)
  const chunks = catalog.chunks.filter((ref) => ref.list === selection.list).reverse()
  const pending = pendingOf(snapshot, selection)
  const needle = selection.needle ? needleOf(selection.needle) : null
  const pendingItem = () => (pending.length ? itemOf(view, pending[0]) : null)
  const window: (SearchRow | unknown)[] = []
  let total = 0
  // why: the page starts at the offset, or at the first match after the cursor
  let first = 'offset' in start ? start.offset : null
  // why: a row is parsed only when the page needs more than its family (searchChunks.ts)
  const found = (value: () => SearchRow | unknown, item: () => RunItem) => {
    if (
      first === null &&
      'after' in start &&
      (start.after === null || isAfter(item(), start.after))
    )
      first = total
    if (first !== null && total >= first && window.length < limit) window.push(value())
    total += 1
  }
  for await (const chunk of chunksInOrder(view, chunks)) {
    for (const index of matchingRows(chunk, needle)) {
      if (!families.has(chunk.families[index])) continue
      if (!snapshot.pending.size && !pending.length && first !== null) {
        // why: a row before the page or after it is only counted
        if (total < first || window.length >= limit) {
          total += 1
          continue
        }
      }
      let row: SearchRow | undefined
      const rowOf = () => (row ??= rowAt(chunk, index))
      if (snapshot.pending.size > 0 && snapshot.pending.has(rowOf()[0])) continue
      if (pending.length > 0) {
        const item = rowItem(rowOf())
        for (let next = pendingItem(); next && newestFirst(next, item) < 0; next = pendingItem()) {
          const record = pending.shift()
          found(
            () => record,
            () => next,
          )
        }
      }
      found(rowOf, () => rowItem(rowOf()))
    }
  }
  for (const record of pending)
    found(
      () => record,
      () => itemOf(view, record),
    )
  const isRow = (value: unknown): value is SearchRow => Array.isArray(value)
  const segmentsOf = new Map<string, SegmentRef>()
  for (const value of window) {
    if (!isRow(value)) continue
    const runs = catalog.segments.filter((ref) => ref.family === value[1])
    const ref = runs[runIndexOf(runs, value[2])]
    if (ref) segmentsOf.set(ref.key, ref)
  }
  const loaded = new Map<string, unknown>()
  await mapWithConcurrency([...segmentsOf.values()], 8, async (ref) => {
    for (const record of await view.segment(ref)) loaded.set(view.layout.key(record), record)
  })
  const records = window.map((value) => {
    if (!isRow(value)) return value
    const record = loaded.get(value[0])
    if (record === undefined)
      throw new DamagedViewError(value[0], 'in the search rows but in no segment')
    return record
  })
  return { records, total, more: (first ?? total) + limit < total }
}

/** The key of the first record whose search row `test` accepts, in any list, or null. */
export async function findRow(
  snapshot: ViewSnapshot,
  test: (row: SearchRow) => boolean,
): Promise<SearchRow | null> {
  for await (const chunk of chunksInOrder(snapshot.view, snapshot.catalog.chunks)) {
    for (let index = 0; index < rowCount(chunk); index++) {
      const row = rowAt(chunk, index)
      if (test(row)) return row
    }
  }
  return null
}
