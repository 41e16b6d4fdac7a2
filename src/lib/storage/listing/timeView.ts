import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import type { IndexEntry } from './indexBase.js'
import { rowsOf, type ChunkRows, type SearchRow } from './searchChunks.js'
import { NotASegmentError, segmentRecords } from './segmentRecords.js'
import { rewriteRuns, type RunItem } from './sortedRuns.js'
import {
  emptyCatalog,
  readCatalog,
  readPacked,
  readPackedBytes,
  writeCatalog,
  writePacked,
  type Catalog,
  type ChunkRef,
  type Directory,
  type SegmentRef,
} from './timeBlobs.js'

/**
 * The time view of a record collection: its lists in their order, cut by time, so that a page
 * reads the few blobs that hold it instead of every record (docs/architecture.md "Time view").
 *
 * - **Families.** Each record is in one family: its list (`active`, `archived`) and the values
 *   that split it (its status), e.g. `['active', 'pending']`. A family is a sequence of
 *   segments, newest first by the list's time (creation; archiving for archived records), each
 *   segment a blob of at most `maxSegment` whole records (sortedRuns.ts). A page of one status
 *   reads its family's newest segment; a page of every status one segment of each family.
 * - **Search rows.** Per list, chunks of at most `maxChunk` rows `[key, family, time, id, text]`
 *   (gzip'd): what `q` and the archive's numbered pages read to find and count their records.
 * - **Directories.** Per index partition, where each of its records is (`[family, time]`), so a
 *   change finds the copy it replaces.
 * - **The catalog** names every blob; blobs are written once under new keys, then the catalog
 *   by compare-and-swap, so one catalog is one consistent view and a blob is never stale.
 *
 * The view follows the per-partition index (recordIndex.ts): every fold hands it the records
 * it read (`follow`), before the fold deletes the deltas it folded, so a reader of the view plus
 * the pending deltas sees every completed write. A view that is missing, damaged or not yet
 * complete is not read (callers read the per-partition index) and is built again by the
 * background rebuild (`build`).
 */

/** What the view needs to know of a collection's records. */
export interface TimeLayout {
  /** Its list and the values splitting it, e.g. `['active', 'pending']` (one family each). */
  family(record: unknown): readonly string[]
  /** When it sorts in its list, newest first (an ISO time, compared as text). */
  sortTime(record: unknown): string
  /** Its id (records of one time are ordered by id, newest first). */
  id(record: unknown): string
  /** Its blob key. */
  key(record: unknown): string
  /** What `q` finds it by (folded: recordSearch.ts). */
  searchText(record: unknown): string
}

export interface TimeViewOptions {
  collection: string
  /** Which blobs the store reaches (`storeScope`); the instance keeps catalogs per scope. */
  scope: string
  layout: TimeLayout
  /** Records per segment at most. Default: 1,000. */
  maxSegment?: number
  /** Search rows per chunk at most. Default: 16,000. */
  maxChunk?: number
  /** Clock (ms), names new blobs. Default: `Date.now`. */
  now?: () => number
  /** Told about a damaged blob of the view (the view is then built again). Default: ignored. */
  onDamaged?: (key: string, problem: string) => void
}

/** A blob of the view is gone or not what the catalog says. */
export class DamagedViewError extends Error {
  override name = 'DamagedViewError'
  constructor(
    readonly key: string,
    problem: string,
  ) {
    super(`${key} of a time view is ${problem}: the view is built again by the background rebuild`)
  }
}

const FOLLOW_ATTEMPTS = 8

/** A blob to write: its kind and value, and what the catalog will say of it. */
type PlannedBlob =
  | { kind: 's'; value: SegmentBlob; ref: Omit<SegmentRef, 'key'> }
  | { kind: 'q'; value: ChunkBlob; ref: Omit<ChunkRef, 'key'> }
  | { kind: 'd'; value: DirectoryBlob; partition: string; unreadable: string[] }

export interface SegmentBlob {
  format: 1
  records: unknown[]
}

export interface ChunkBlob {
  format: 1
  rows: SearchRow[]
}

interface DirectoryBlob {
  format: 1
  keys: Directory
}

/** A plan: the new catalog (its blob keys still to fill in), the blobs to write, the ones it replaces. */
interface Plan {
  catalog: Catalog
  blobs: PlannedBlob[]
  replaced: string[]
}

export class TimeView {
  readonly #store: Store
  readonly #options: Required<TimeViewOptions>

  constructor(store: Store, options: TimeViewOptions) {
    this.#store = store
    // why: `??`, not a spread over defaults: an option passed as undefined takes its default
    this.#options = {
      ...options,
      maxSegment: options.maxSegment ?? 1_000,
      maxChunk: options.maxChunk ?? 16_000,
      now: options.now ?? Date.now,
      onDamaged: options.onDamaged ?? (() => undefined),
    }
  }

  get collection(): string {
    return this.#options.collection
  }

  get layout(): TimeLayout {
    return this.#options.layout
  }

  /** The catalog when the view is complete (readable), else null. */
  async completeCatalog(): Promise<Catalog | null> {
    const read = await readCatalog(this.#store, this.#options.scope, this.collection)
    if (read.state === 'damaged') {
      this.#options.onDamaged(this.collection, read.problem)
      return null
    }
    return read.state === 'found' && read.catalog.complete ? read.catalog : null
  }

  /** Whether the view is complete. */
  async isComplete(): Promise<boolean> {
    return (await this.completeCatalog()) !== null
  }

  /**
   * A segment's records, newest first (DamagedViewError when it is gone or no segment). `keep`:
   * whether the instance keeps it for the next request (timeBlobs.ts `readPacked`). Default: true.
   */
  async segment(ref: SegmentRef, keep = true): Promise<unknown[]> {
    const blob = await readPacked<SegmentBlob>(this.#store, ref.key, keep)
    if (!blob || !Array.isArray(blob.records))
      throw new DamagedViewError(ref.key, 'gone or not a segment')
    return blob.records
  }

  /**
   * A segment's records, newest first, each parsed when it is reached and none kept
   * (segmentRecords.ts): what a walk of a whole list reads. DamagedViewError, when it is
   * gone or no segment, comes with the read or with the record found unreadable.
   */
  async segmentRecords(ref: SegmentRef): Promise<Iterator<unknown>> {
    const json = await readPackedBytes(this.#store, ref.key)
    if (!json) throw new DamagedViewError(ref.key, 'gone or not a segment')
    const records = segmentRecords(json)
    return {
      next: () => {
        try {
          return records.next()
        } catch (error) {
          if (!(error instanceof NotASegmentError)) throw error
          throw new DamagedViewError(ref.key, `not a segment (${error.message})`)
        }
      },
    }
  }

  /** A chunk's search rows, newest first, as kept (DamagedViewError when it is gone or no chunk). */
  async chunk(ref: ChunkRef): Promise<ChunkRows> {
    const rows = await readPacked<ChunkRows>(this.#store, ref.key, true, 'chunk')
    if (!rows) throw new DamagedViewError(ref.key, 'gone or not a chunk')
    return rows
  }

  /**
   * Marks the view damaged when `catalog` (the one a reader read `key` from) is still the
   * current one: callers then read the per-partition index until the view is built again. A
   * reader whose catalog was replaced meanwhile (its blobs deleted) reads the new one instead.
   * True when the view was marked damaged.
   */
  async damaged(error: DamagedViewError, catalog: Catalog): Promise<boolean> {
    const read = await readCatalog(this.#store, this.#options.scope, this.collection)
    if (read.state !== 'found' || read.catalog !== catalog) return false
    this.#options.onDamaged(error.key, error.message)
    await this.#drop(read.etag)
    return true
  }

  /**
   * Takes what a fold wrote of `partition`: `entries` (its records as now known) for the keys
   * `changed` (every key of the partition when `all`). While the view is not complete it only
   * marks the catalog changed, so a build running meanwhile reads again. False when the
   * catalog stayed contended (the fold then keeps its deltas and is repeated).
   */
  async follow(
    partition: string,
    entries: ReadonlyMap<string, IndexEntry>,
    changed: Iterable<string> | 'all',
  ): Promise<boolean> {
    const { scope } = this.#options
    for (let attempt = 1; attempt <= FOLLOW_ATTEMPTS; attempt++) {
      const read = await readCatalog(this.#store, scope, this.collection)
      if (read.state !== 'found' || !read.catalog.complete) {
        // why: a missing, damaged or unfinished view is built from the bases; a change is
        // recorded so that a build that read the bases before it reads them again
        const base = read.state === 'found' ? read.catalog : emptyCatalog()
        const bumped = { ...base, complete: false, bumps: (base.bumps ?? 0) + 1 }
        const previous = read.state === 'missing' ? null : read.etag
        if (read.state === 'damaged') this.#options.onDamaged(this.collection, read.problem)
        if (await writeCatalog(this.#store, scope, this.collection, bumped, previous)) return true
        await pause(attempt)
        continue
      }
      let plan: Plan | null
      try {
        plan = await this.#plan(read.catalog, partition, entries, changed)
      } catch (error) {
        if (!(error instanceof DamagedViewError)) throw error
        this.#options.onDamaged(error.key, error.message)
        await this.#drop(read.etag)
        return true
      }
      if (plan === null) return true
      if (await this.#commit(plan, read.etag)) return true
      await pause(attempt)
    }
    return false
  }

  /**
   * Builds the whole view from every partition's records (`read`: answers each partition's
   * entries, read again on each attempt only for partitions whose base changed) and marks it
   * complete. False when the catalog kept changing under it.
   */
  async build(read: () => Promise<Map<string, ReadonlyMap<string, IndexEntry>>>): Promise<boolean> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      // why: the catalog first: a fold that wrote a base after it was read has changed it
      const before = await readCatalog(this.#store, this.#options.scope, this.collection)
      const partitions = await read()
      const plan = await this.#plan(emptyCatalog(), null, new Map(), [], partitions)
      if (!plan) continue
      plan.catalog.complete = true
      plan.replaced =
        before.state === 'found'
          ? [
              ...before.catalog.segments.map((ref) => ref.key),
              ...before.catalog.chunks.map((ref) => ref.key),
              ...Object.values(before.catalog.partitions).map((ref) => ref.dir),
            ]
          : []
      if (await this.#commit(plan, before.state === 'missing' ? null : before.etag)) return true
    }
    return false
  }

  /** Marks the view not complete (a damaged blob was found): callers read the per-partition index until it is built again. */
  async #drop(etag: string): Promise<void> {
    const catalog = { ...emptyCatalog(), bumps: 1 }
    await writeCatalog(this.#store, this.#options.scope, this.collection, catalog, etag)
  }

  /**
   * The catalog after a change: for `partition` (its `entries`, keys `changed`), or — with
   * `whole` — every partition of a new view. Null when nothing changes.
   */
  async #plan(
    catalog: Catalog,
    partition: string | null,
    entries: ReadonlyMap<string, IndexEntry>,
    changed: Iterable<string> | 'all',
    whole?: Map<string, ReadonlyMap<string, IndexEntry>>,
  ): Promise<Plan | null> {
    const { layout } = this.#options
    const families = catalog.families.map((family) => [...family])
    const familyIndex = (family: readonly string[]) => {
      const name = JSON.stringify(family)
      let index = families.findIndex((known) => JSON.stringify(known) === name)
      if (index === -1) index = families.push([...family]) - 1
      return index
    }
    const removedFromFamily = new Map<number, Map<string, string>>()
    const addedToFamily = new Map<number, unknown[]>()
    const removedFromList = new Map<string, Map<string, string>>()
    const addedToList = new Map<string, SearchRow[]>()
    const directories = new Map<string, { dir: Directory; unreadable: Set<string> }>()
    const replaced: string[] = []
    let touched = false

    const work = whole ?? new Map([[partition!, entries]])
    for (const [name, partEntries] of work) {
      const ref = catalog.partitions[name]
      let dir: Directory = {}
      if (ref) {
        const blob = await readPacked<DirectoryBlob>(this.#store, ref.dir)
        if (!blob || typeof blob.keys !== 'object') {
          throw new DamagedViewError(ref.dir, 'gone or not a directory')
        }
        dir = blob.keys
        replaced.push(ref.dir)
      }
      const all = whole !== undefined || changed === 'all' || !ref
      const keys = all ? new Set([...partEntries.keys(), ...Object.keys(dir)]) : new Set(changed)
      const next = { dir: { ...dir }, unreadable: new Set(ref?.unreadable ?? []) }
      for (const key of keys) {
        const old = dir[key]
        if (old) {
          const list = families[old[0]][0]
          touched = true
          if (!removedFromFamily.has(old[0])) removedFromFamily.set(old[0], new Map())
          removedFromFamily.get(old[0])!.set(key, old[1])
          if (!removedFromList.has(list)) removedFromList.set(list, new Map())
          removedFromList.get(list)!.set(key, old[1])
          delete next.dir[key]
        }
        touched ||= next.unreadable.delete(key)
        const entry = partEntries.get(key)
        if (!entry) continue
        touched = true
        if (entry.record === null) {
          next.unreadable.add(key)
          continue
        }
        const record = entry.record
        const family = familyIndex(layout.family(record))
        const time = layout.sortTime(record)
        const list = families[family][0]
        if (!addedToFamily.has(family)) addedToFamily.set(family, [])
        addedToFamily.get(family)!.push(record)
        if (!addedToList.has(list)) addedToList.set(list, [])
        addedToList
          .get(list)!
          .push([key, family, time, layout.id(record), layout.searchText(record)])
        next.dir[key] = [family, time]
      }
      directories.set(name, next)
    }
    if (!touched && whole === undefined) return null

    const blobs: PlannedBlob[] = []
    const segments: SegmentRef[] = []
    for (let family = 0; family < families.length; family++) {
      const runs = catalog.segments.filter((ref) => ref.family === family)
      if (!removedFromFamily.has(family) && !addedToFamily.has(family)) {
        segments.push(...runs)
        continue
      }
      const rewritten = await rewriteRuns(
        runs,
        removedFromFamily.get(family) ?? new Map(),
        addedToFamily.get(family) ?? [],
        (record) => this.#recordItem(record),
        (ref) => this.segment(ref),
        this.#options.maxSegment,
      )
      const kept = new Set<string>()
      for (const run of rewritten) {
        if ('kept' in run) {
          kept.add(run.kept.key)
          segments.push({ ...run.kept, from: run.from })
        } else {
          blobs.push({
            kind: 's',
            value: { format: 1, records: run.items },
            ref: { family, from: run.from, count: run.items.length },
          })
        }
      }
      replaced.push(...runs.filter((ref) => !kept.has(ref.key)).map((ref) => ref.key))
    }
    const chunks: ChunkRef[] = []
    const lists = [...new Set([...catalog.chunks.map((ref) => ref.list), ...addedToList.keys()])]
    for (const list of lists) {
      const runs = catalog.chunks.filter((ref) => ref.list === list)
      if (!removedFromList.has(list) && !addedToList.has(list)) {
        chunks.push(...runs)
        continue
      }
      const rewritten = await rewriteRuns(
        runs,
        removedFromList.get(list) ?? new Map(),
        addedToList.get(list) ?? [],
        rowItem,
        async (ref) => rowsOf(await this.chunk(ref)),
        this.#options.maxChunk,
      )
      const kept = new Set<string>()
      for (const run of rewritten) {
        if ('kept' in run) {
          kept.add(run.kept.key)
          chunks.push({ ...run.kept, from: run.from })
        } else {
          blobs.push({
            kind: 'q',
            value: { format: 1, rows: run.items },
            ref: { list, from: run.from, count: run.items.length },
          })
        }
      }
      replaced.push(...runs.filter((ref) => !kept.has(ref.key)).map((ref) => ref.key))
    }
    const partitions = { ...catalog.partitions }
    for (const [name, { dir, unreadable }] of directories) {
      delete partitions[name]
      if (Object.keys(dir).length === 0 && unreadable.size === 0) continue
      blobs.push({
        kind: 'd',
        value: { format: 1, keys: dir },
        partition: name,
        unreadable: [...unreadable],
      })
    }
    return {
      catalog: { ...catalog, families, segments, chunks, partitions },
      blobs,
      replaced,
    }
  }

  /** Writes the plan's blobs, then its catalog over `etag`; on a lost race deletes what it wrote. */
  async #commit(plan: Plan, etag: string | null): Promise<boolean> {
    const { catalog } = plan
    const at = this.#options.now()
    const written = await mapWithConcurrency(plan.blobs, 8, async (blob) => {
      const key = await writePacked(this.#store, this.collection, blob.kind, blob.value, at)
      if (blob.kind === 's') catalog.segments.push({ key, ...blob.ref })
      else if (blob.kind === 'q') catalog.chunks.push({ key, ...blob.ref })
      else catalog.partitions[blob.partition] = { dir: key, unreadable: blob.unreadable }
      return key
    })
    catalog.segments.sort((a, b) => a.family - b.family || compare(a.from, b.from))
    catalog.chunks.sort((a, b) => compare(a.list, b.list) || compare(a.from, b.from))
    const committed = await writeCatalog(
      this.#store,
      this.#options.scope,
      this.collection,
      catalog,
      etag,
    )
    const garbage = committed ? plan.replaced : written
    await mapWithConcurrency(garbage, 8, (key) => this.#store.delete(key))
    return committed !== null
  }

  #recordItem(record: unknown): RunItem {
    const { layout } = this.#options
    return { key: layout.key(record), time: layout.sortTime(record), id: layout.id(record) }
  }
}

export function rowItem(row: SearchRow): RunItem {
  return { key: row[0], time: row[2], id: row[3] }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(250, 25 * attempt)))
}
