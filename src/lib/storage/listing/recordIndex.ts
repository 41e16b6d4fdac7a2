import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import { indexKeys } from '../blobLayout.js'
import {
  addCounts,
  countEntries,
  readBase,
  readCounts,
  writeBase,
  type IndexBase,
  type IndexCounts,
  type IndexEntry,
  type Tally,
} from './indexBase.js'
import { listDeltas, recordKeysOf, writeDelta, type IndexDelta } from './indexDeltas.js'
import type { Partitioning } from './partitioning.js'

/**
 * The per-partition index of one record collection (docs/architecture.md "Record indexes"):
 * what lets an admin list 100,000 records with a few blob requests, and a one-product list read
 * only that product's part.
 *
 * **Contract.** Every write of a record goes through `announce(key)` before the record blob is
 * written. Then `all()` answers every record of the collection and `partition(p)` every record
 * of one partition, as left by each write that completed before the call began, or, while an
 * index is missing, what exists plus `rebuilding: true`. No request reads more than a bounded
 * number of records: a missing index is rebuilt by the background rebuild (indexMaintenance.ts).
 *
 * How: per partition a base blob (every record with its ETag; counts in its metadata) plus
 * deltas, one tiny blob per write (indexDeltas.ts). Readers answer base + the records the
 * deltas name, read again; a fold writes them into the base (compare-and-swap) and deletes the
 * deltas that have settled. A marker blob says every partition has been indexed, so that a
 * partition without a base is known to be new rather than lost.
 */
export interface RecordIndexOptions {
  /** Name in index keys, e.g. `reservations`. */
  collection: string
  /** Prefix of every record key, e.g. `reservations/`. */
  prefix: string
  partitioning: Partitioning
  /** Which blobs the store reaches (`storeScope`); the instance cache is kept per scope. */
  scope: string
  /** The record a blob holds, or null when it is not one (damaged, hand-edited). */
  parse: (text: string) => unknown
  /** Told once per read of a blob that is not a record. */
  onUnreadable: (key: string) => void
  /** What a record counts as in the base's metadata (statistics). Default: nothing. */
  tally?: Tally
  /** Blob reads in flight at once. Default: 50. */
  readConcurrency?: number
  /** Hands over work that may finish after the response (`context.waitUntil`). Default: left running. */
  defer?: (work: Promise<unknown>) => void
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** Told about failed background work (folds). Default: ignored. */
  onBackgroundError?: (work: string, error: unknown) => void
  /** Told about a damaged index blob (ignored, then rebuilt): its key and what is wrong. Default: ignored. */
  onDamagedIndex?: (key: string, problem: string) => void
  /** Starts the background rebuild of missing indexes (indexMaintenance.ts). Default: nothing. */
  requestRebuild?: () => void
}

/** Records of a listing, and the keys of blobs that could not be read as records. */
export interface Listing<T> {
  records: T[]
  unreadableKeys: string[]
  /**
   * True while an index this listing is read from is missing or outdated and being rebuilt: the
   * records are then what exists so far, and answers carry `rebuilding: true`.
   */
  rebuilding?: boolean
}

/** Counts over a whole collection, from the bases' metadata (exact: pending deltas are read). */
export interface CollectionCounts extends IndexCounts {
  /** Counts per partition (a product's slug). */
  partitions: Map<string, IndexCounts>
  rebuilding?: boolean
}

// why: a delta is deleted by a fold only this long after it was written, so the record write
// it announces has landed before the fold reads the record
const SETTLE_MS = 10_000
// why: a collection this small is indexed inside the request (a bounded few hundred reads)
const SMALL_COLLECTION = 300
const PARTITION_CONCURRENCY = 16
// why: each base read in flight holds its text (1.4 MB as a string at 100k) until parsed; a
// whole-collection read keeps a few in flight so that a function stays far below 256 MB
const BASE_READ_CONCURRENCY = 4
// why: a scan keeps no base; two in flight keep the download busy while one is visited
const SCAN_CONCURRENCY = 2
const REBUILD_KICK_INTERVAL_MS = 60_000

/** When this instance last asked for a rebuild, per scope (only spares duplicate calls). */
const lastKicks = new Map<string, number>()

type Options = Required<RecordIndexOptions>

export class RecordIndex {
  readonly #store: Store
  readonly #options: Options

  constructor(store: Store, options: RecordIndexOptions) {
    this.#store = store
    this.#options = {
      tally: () => [],
      readConcurrency: 50,
      defer: () => undefined,
      now: Date.now,
      onBackgroundError: () => undefined,
      onDamagedIndex: () => undefined,
      requestRebuild: () => undefined,
      ...options,
    }
  }

  get collection(): string {
    return this.#options.collection
  }

  /** Call before writing or deleting the record under `key`. */
  announce(key: string): Promise<void> {
    const partition = this.#options.partitioning.of(key)
    if (partition === null) throw new Error(`${key} is no key of ${this.#options.collection}`)
    return writeDelta(this.#store, this.collection, partition, key, this.#options.now())
  }

  /** Every record of the collection. */
  all<T>(): Promise<Listing<T>> {
    return this.#all<T>()
  }

  /** Counts over the collection, from each base's metadata and the records of pending deltas. */
  counts(): Promise<CollectionCounts> {
    return this.#counts(false)
  }

  /**
   * Visits every record of the collection, a partition at a time, in no order; for aggregates
   * over the whole collection without holding it: a base this instance holds is used, any
   * other is read, visited and dropped (not kept), so at most SCAN_CONCURRENCY bases are in
   * memory at once. Answers what a listing would say besides its records.
   */
  async scan<T>(visit: (record: T) => void): Promise<Omit<Listing<T>, 'records'>> {
    const unreadableKeys: string[] = []
    const walked = await this.#walk(false, (view) => {
      for (const [key, entry] of view) {
        if (entry.record === null) unreadableKeys.push(key)
        else visit(entry.record as T)
      }
    })
    return { ...walked, unreadableKeys }
  }

  async #all<T>(): Promise<Listing<T>> {
    const listing: Listing<T> = { records: [], unreadableKeys: [] }
    const walked = await this.#walk(true, (view) => addTo(listing, view))
    return { ...walked, ...listing }
  }

  /**
   * Hands each partition's view (base + deltas) to `take`; `keep`: bases read are kept in the
   * instance. `adopted`: a small collection was just indexed here (so it is not tried twice).
   */
  async #walk(
    keep: boolean,
    take: (view: ReadonlyMap<string, IndexEntry>) => void,
    adopted = false,
  ): Promise<{ rebuilding?: boolean }> {
    const [listed, deltas] = await Promise.all([this.#listBases(), this.#deltas()])
    if (!adopted && !listed.complete && (await this.#adoptSmall())) {
      return this.#walk(keep, take, true)
    }
    const partitions = new Set([...listed.bases.keys(), ...deltas.keys()])
    let rebuilding = !listed.complete
    const concurrency = keep ? BASE_READ_CONCURRENCY : SCAN_CONCURRENCY
    await mapWithConcurrency([...partitions], concurrency, async (partition) => {
      const etag = listed.bases.get(partition)
      const base = etag === undefined ? null : await this.#base(partition, etag, true, keep)
      if (base === 'damaged') rebuilding = true
      const pending = deltas.get(partition) ?? []
      take(await this.#view(base, pending))
      this.#foldLater(partition, pending)
    })
    if (!rebuilding) return {}
    this.#kickRebuild()
    return { rebuilding: true }
  }

  /** Every record of one partition (its base and its deltas only), or of its keys under `under`. */
  async partition<T>(partition: string, under = ''): Promise<Listing<T>> {
    const [base, pending] = await Promise.all([
      this.#base(partition),
      this.#deltas(indexKeys.partitionDeltas(this.collection, partition)),
    ])
    const deltas = pending.get(partition) ?? []
    const listing: Listing<T> = { records: [], unreadableKeys: [] }
    addTo(listing, await this.#view(base, deltas), under)
    this.#foldLater(partition, deltas)
    if (base !== null && base !== 'damaged') return listing
    if (base === null && (await this.#isComplete())) return listing
    if (base === null && (await this.#adoptSmall())) return this.partition<T>(partition, under)
    this.#kickRebuild()
    return { ...listing, rebuilding: true }
  }

  async #counts(adopted: boolean): Promise<CollectionCounts> {
    const [listed, deltas] = await Promise.all([this.#listBases(), this.#deltas()])
    const partitions = new Set([...listed.bases.keys(), ...deltas.keys()])
    const total: CollectionCounts = {
      records: 0,
      unreadable: 0,
      tallies: {},
      partitions: new Map(),
    }
    let rebuilding = !listed.complete
    await mapWithConcurrency([...partitions], PARTITION_CONCURRENCY, async (partition) => {
      const etag = listed.bases.get(partition)
      const pending = deltas.get(partition) ?? []
      const key = indexKeys.base(this.collection, partition)
      const fromMetadata =
        etag !== undefined && pending.length === 0
          ? await readCounts(this.#store, this.#options.scope, key, etag)
          : null
      let counts = fromMetadata
      if (counts === null) {
        const base = etag === undefined ? null : await this.#base(partition, etag)
        if (base === 'damaged') rebuilding = true
        counts = countEntries((await this.#view(base, pending)).values(), this.#options.tally)
      }
      total.partitions.set(partition, counts)
      addCounts(total, counts)
      this.#foldLater(partition, pending)
    })
    if (!rebuilding) return total
    if (!adopted && !listed.complete && (await this.#adoptSmall())) return this.#counts(true)
    this.#kickRebuild()
    return { ...total, rebuilding: true }
  }

  /**
   * Writes the partition's pending deltas into its base (compare-and-swap) and deletes those
   * that have settled; with `verify`, also compares the base with a key listing of the
   * partition (writes made around the service) and builds a missing or damaged base from it.
   * Without `verify`, a partition with no base is left alone unless the collection is complete
   * (its base would otherwise miss records no delta names). True when the base is current.
   */
  async fold(partition: string, options: { verify?: boolean } = {}): Promise<boolean> {
    const started = this.#options.now()
    const key = indexKeys.base(this.collection, partition)
    const [found, pending] = await Promise.all([
      this.#base(partition, undefined, false),
      this.#deltas(indexKeys.partitionDeltas(this.collection, partition)),
    ])
    const deltas = pending.get(partition) ?? []
    const base = found === 'damaged' ? null : found
    if (!options.verify) {
      if (found === 'damaged') return false
      if (found === null && !(await this.#isComplete())) return false
      if (deltas.length === 0) return true
    }
    const entries = new Map(base?.entries ?? [])
    let changed = base === null
    changed = (await this.#read(entries, recordKeysOf(deltas))) || changed
    if (options.verify) changed = (await this.#compareKeys(entries, partition)) || changed
    if (changed) {
      const previous = found === 'damaged' ? await this.#etagOf(key) : (base?.etag ?? null)
      const written = await writeBase(
        this.#store,
        this.#options.scope,
        key,
        entries,
        previous,
        this.#options.tally,
      )
      if (written === null) return false
    }
    const settled = deltas.filter((delta) => delta.at < started - SETTLE_MS)
    await mapWithConcurrency(settled, 20, (delta) => this.#store.delete(delta.key))
    return true
  }

  /** Whether every partition has been indexed (the marker blob). */
  async isComplete(): Promise<boolean> {
    return this.#isComplete()
  }

  /** Partitions that hold records, or once did, and have no readable base. */
  async missingPartitions(): Promise<string[]> {
    const [listed, found] = await Promise.all([
      this.#listBases(),
      this.#options.partitioning.discover(this.#store),
    ])
    return found.filter((partition) => !listed.bases.has(partition))
  }

  /** Every partition with records or a base. */
  async partitions(): Promise<string[]> {
    const [listed, found] = await Promise.all([
      this.#listBases(),
      this.#options.partitioning.discover(this.#store),
    ])
    return [...new Set([...found, ...listed.bases.keys()])].sort()
  }

  /** Records that every partition has a base (after a rebuild built the missing ones). */
  async markComplete(): Promise<void> {
    await this.#store.set(indexKeys.complete(this.collection), '', { onlyIfNew: true })
  }

  async #isComplete(): Promise<boolean> {
    return (await this.#store.getMetadata(indexKeys.complete(this.collection))) !== null
  }

  async #etagOf(key: string): Promise<string | null> {
    return (await this.#store.getMetadata(key))?.etag ?? null
  }

  /** Base ETags by partition, and whether the collection's marker is there (one listing). */
  async #listBases(): Promise<{ bases: Map<string, string>; complete: boolean }> {
    const { collection } = this
    const basesPrefix = indexKeys.bases(collection)
    const bases = new Map<string, string>()
    let complete = false
    for await (const page of this.#store.list({
      prefix: indexKeys.folder(collection),
      paginate: true,
    })) {
      for (const { key, etag } of page.blobs) {
        if (key === indexKeys.complete(collection)) complete = true
        else if (key.startsWith(basesPrefix)) bases.set(key.slice(basesPrefix.length), etag)
      }
    }
    return { bases, complete }
  }

  /** The deltas under `prefix` (default: the whole collection's), by partition. */
  async #deltas(prefix = indexKeys.deltas(this.collection)): Promise<Map<string, IndexDelta[]>> {
    const { deltas, damaged } = await listDeltas(this.#store, this.collection, prefix)
    const byPartition = new Map<string, IndexDelta[]>()
    const strays: string[] = [...damaged]
    for (const delta of deltas) {
      if (this.#options.partitioning.of(delta.recordKey) !== delta.partition) {
        strays.push(delta.key)
        continue
      }
      byPartition.set(delta.partition, [...(byPartition.get(delta.partition) ?? []), delta])
    }
    if (strays.length > 0) {
      this.#options.onDamagedIndex(
        strays[0],
        `not a delta of this collection (${strays.length} such blobs, ignored)`,
      )
    }
    return byPartition
  }

  /**
   * The partition's base; `drop`: a damaged one is deleted with the marker (then rebuilt);
   * `keep`: a base read is kept in the instance.
   */
  async #base(
    partition: string,
    listedEtag?: string,
    drop = true,
    keep = true,
  ): Promise<IndexBase | 'damaged' | null> {
    const key = indexKeys.base(this.collection, partition)
    const found = await readBase(this.#store, this.#options.scope, key, listedEtag, keep)
    if (found === null || !('damaged' in found)) return found
    this.#options.onDamagedIndex(key, found.damaged)
    if (!drop) return 'damaged'
    // why: a damaged base is a missing one: without it and the marker, the rebuild builds it
    this.#options.defer(
      Promise.all([
        this.#store.delete(key),
        this.#store.delete(indexKeys.complete(this.collection)),
      ]).catch((error: unknown) => this.#options.onBackgroundError('index.drop_damaged', error)),
    )
    return 'damaged'
  }

  /** The base's entries with the records the deltas name read again. */
  async #view(
    base: IndexBase | 'damaged' | null,
    deltas: readonly IndexDelta[],
  ): Promise<ReadonlyMap<string, IndexEntry>> {
    const held = base !== null && base !== 'damaged' ? base.entries : null
    // why: without deltas the base's own entries are the view (no copy of 2,000 entries a base)
    if (held && deltas.length === 0) return held
    const entries = new Map(held ?? [])
    await this.#read(entries, recordKeysOf(deltas))
    return entries
  }

  /** Reads `keys` into `entries`; true when any entry changed. */
  async #read(entries: Map<string, IndexEntry>, keys: readonly string[]): Promise<boolean> {
    const { readConcurrency, parse, onUnreadable } = this.#options
    let changed = false
    await mapWithConcurrency(keys, readConcurrency, async (key) => {
      const found = await this.#store.getWithMetadata(key, { type: 'text' })
      const before = entries.get(key)
      if (!found) {
        changed = entries.delete(key) || changed
        return
      }
      const record = parse(found.data)
      if (record === null) onUnreadable(key)
      const etag = found.etag ?? null
      if (before === undefined || etag === null || before.etag !== etag) changed = true
      entries.set(key, { etag, record })
    })
    return changed
  }

  /** Lists the partition's keys and reads those whose ETag differs; true when any entry changed. */
  async #compareKeys(entries: Map<string, IndexEntry>, partition: string): Promise<boolean> {
    const { partitioning } = this.#options
    const listed = new Map<string, string>()
    for await (const page of this.#store.list({
      prefix: partitioning.prefix(partition),
      paginate: true,
    })) {
      for (const blob of page.blobs) {
        if (partitioning.of(blob.key) === partition) listed.set(blob.key, blob.etag)
      }
    }
    let changed = false
    for (const key of entries.keys()) {
      if (!listed.has(key)) changed = entries.delete(key) || changed
    }
    const stale = [...listed].filter(([key, etag]) => entries.get(key)?.etag !== etag)
    const read = await this.#read(
      entries,
      stale.map(([key]) => key),
    )
    return read || changed
  }

  /** Folds in the background when some deltas have settled (so the next reader reads fewer). */
  #foldLater(partition: string, deltas: readonly IndexDelta[]): void {
    const settledBefore = this.#options.now() - SETTLE_MS
    if (!deltas.some((delta) => delta.at < settledBefore)) return
    this.#options.defer(
      this.fold(partition).catch((error: unknown) =>
        this.#options.onBackgroundError('index.fold', error),
      ),
    )
  }

  /**
   * Indexes a collection of at most SMALL_COLLECTION records in the request (a new shop, a test);
   * false when it is larger, and the background rebuild is needed.
   */
  async #adoptSmall(): Promise<boolean> {
    const { partitioning, prefix } = this.#options
    const partitions = new Set<string>()
    let count = 0
    for await (const page of this.#store.list({ prefix, paginate: true })) {
      count += page.blobs.length
      if (count > SMALL_COLLECTION) return false
      for (const { key } of page.blobs) {
        const partition = partitioning.of(key)
        if (partition !== null) partitions.add(partition)
      }
    }
    // why: a partition with neither records nor a base needs no base: under the marker, a
    // partition without one is new, and every record it gets will have a delta (the history's
    // 17 fixed partitions would otherwise cost four requests each on an empty shop)
    const folded = await Promise.all(
      [...partitions].map((partition) => this.fold(partition, { verify: true })),
    )
    if (folded.includes(false)) return false
    await this.markComplete()
    return true
  }

  #kickRebuild(): void {
    const { scope, now, requestRebuild } = this.#options
    const last = lastKicks.get(scope) ?? -Infinity
    if (now() - last < REBUILD_KICK_INTERVAL_MS) return
    lastKicks.set(scope, now())
    requestRebuild()
  }
}

function addTo<T>(listing: Listing<T>, entries: ReadonlyMap<string, IndexEntry>, under = ''): void {
  for (const [key, entry] of entries) {
    if (!key.startsWith(under)) continue
    if (entry.record === null) listing.unreadableKeys.push(key)
    else listing.records.push(entry.record as T)
  }
}
