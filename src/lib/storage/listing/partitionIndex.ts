import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import { indexKeys } from '../blobLayout.js'
import {
  addCounts,
  countEntries,
  heldBase,
  readBase,
  readCounts,
  writeBase,
  type IndexBase,
  type IndexEntry,
} from './indexBase.js'
import { deltasByPartition, recordKeysOf, writeDelta, type IndexDelta } from './indexDeltas.js'
import { addTo, changedKeys, compareWithKeys, readRecords, type Changed } from './indexEntries.js'
import type { CollectionCounts, Listing, RecordIndexOptions } from './indexOptions.js'

export type { CollectionCounts, Listing, RecordIndexOptions } from './indexOptions.js'

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
export const SCAN_CONCURRENCY = 2
const REBUILD_KICK_INTERVAL_MS = 60_000

/** When this instance last asked for a rebuild, per scope (only spares duplicate calls). */
const lastKicks = new Map<string, number>()

type Options = Required<RecordIndexOptions>

export class PartitionIndex {
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

  /** Call before writing or deleting the record under `key`; answers the delta's key. */
  announce(key: string): Promise<string> {
    return this.announceMany([key])
  }

  /**
   * Call before writing or deleting the records under `keys`, all of one partition: one delta
   * names them all (a batch of writes). Answers the delta's key.
   */
  announceMany(keys: readonly string[]): Promise<string> {
    const partition = this.#options.partitioning.of(keys[0] ?? '')
    if (
      partition === null ||
      keys.some((key) => this.#options.partitioning.of(key) !== partition)
    ) {
      throw new Error(`${keys.join(', ')} are no keys of one partition of ${this.collection}`)
    }
    return writeDelta(this.#store, this.collection, partition, keys, this.#options.now())
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
    const { listed, deltas } = await this.#deltasThenBases()
    if (!adopted && !listed.complete && (await this.adoptSmall())) {
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
    this.kickRebuild()
    return { rebuilding: true }
  }

  /** Every record of one partition (its base and its deltas only), or of its keys under `under`. */
  async partition<T>(partition: string, under = ''): Promise<Listing<T>> {
    // why: the deltas before the base (see #deltasThenBases)
    const pending = await this.#deltas(indexKeys.partitionDeltas(this.collection, partition))
    const base = await this.#base(partition)
    const deltas = pending.get(partition) ?? []
    const listing: Listing<T> = { records: [], unreadableKeys: [] }
    addTo(listing, await this.#view(base, deltas), under)
    this.#foldLater(partition, deltas)
    if (base !== null && base !== 'damaged') return listing
    if (base === null && (await this.isIndexed())) return listing
    if (base === null && (await this.adoptSmall())) return this.partition<T>(partition, under)
    this.kickRebuild()
    return { ...listing, rebuilding: true }
  }

  async #counts(adopted: boolean): Promise<CollectionCounts> {
    const { listed, deltas } = await this.#deltasThenBases()
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
    if (!adopted && !listed.complete && (await this.adoptSmall())) return this.#counts(true)
    this.kickRebuild()
    return { ...total, rebuilding: true }
  }

  /**
   * Writes the partition's pending deltas into its base (compare-and-swap), hands what it read
   * to the time view, and deletes the deltas that have settled; with `verify`, also compares the
   * base with a key listing of the partition (writes made around the service) and builds a
   * missing or damaged base from it. Without `verify`, a partition with no base is left alone
   * unless the collection is complete (its base would otherwise miss records no delta names).
   * True when the base (and the view) are current.
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
      if (found === null && !(await this.isIndexed())) return false
      if (deltas.length === 0) return true
    }
    const entries = new Map(base?.entries ?? [])
    let changed = base === null
    const read = recordKeysOf(deltas)
    changed = (await readRecords(this.#store, entries, this.#options, read)) || changed
    if (options.verify)
      changed = (await compareWithKeys(this.#store, entries, partition, this.#options)) || changed
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
    const followed = base === null ? 'all' : changedKeys(base.entries, entries, read)
    if (!(await this.follow(partition, entries, followed))) return false
    const settled = deltas.filter((delta) => delta.at < started - SETTLE_MS)
    await mapWithConcurrency(settled, 20, (delta) => this.#store.delete(delta.key))
    return true
  }

  /**
   * Hands what a fold read of `partition` to what follows the index (the time view), before the
   * fold deletes its deltas; false keeps them. Default: nothing follows.
   */
  protected follow(
    _partition: string,
    _entries: ReadonlyMap<string, IndexEntry>,
    _changed: Changed,
  ): Promise<boolean> {
    return Promise.resolve(true)
  }

  /** The partition's records as its base holds them (read again, not kept), or null without a base. */
  async baseEntries(partition: string): Promise<ReadonlyMap<string, IndexEntry> | null> {
    const key = indexKeys.base(this.collection, partition)
    const found = await readBase(this.#store, this.#options.scope, key, undefined, false)
    return found === null || 'damaged' in found ? null : found.entries
  }

  /**
   * The partition's records as a base this instance holds has them, read (and kept) when it
   * holds none; possibly older than the records (a caller writing by compare-and-swap with
   * their ETags finds out). Null without a base.
   */
  async heldEntries(partition: string): Promise<ReadonlyMap<string, IndexEntry> | null> {
    const key = indexKeys.base(this.collection, partition)
    const held = heldBase(this.#options.scope, key)
    if (held) return held.entries
    const found = await readBase(this.#store, this.#options.scope, key)
    return found === null || 'damaged' in found ? null : found.entries
  }

  /**
   * Writes records a caller has just written (`written`: their new entries) into the
   * partition's base without reading them again, hands them to what follows the index, and
   * deletes the deltas that announced them (`deltas`). False (nothing deleted) when the base
   * changed meanwhile or is missing: a fold then reads the records again.
   */
  async absorb(
    partition: string,
    written: ReadonlyMap<string, IndexEntry>,
    deltas: readonly string[],
  ): Promise<boolean> {
    const key = indexKeys.base(this.collection, partition)
    const found = await readBase(this.#store, this.#options.scope, key)
    if (found === null || 'damaged' in found) return false
    const entries = new Map([...found.entries, ...written])
    const { scope, tally } = this.#options
    if ((await writeBase(this.#store, scope, key, entries, found.etag, tally)) === null)
      return false
    if (!(await this.follow(partition, entries, new Set(written.keys())))) return false
    await mapWithConcurrency(deltas, 20, (delta) => this.#store.delete(delta))
    return true
  }

  /** The pending deltas of `partition`, or (null) of the whole collection, by partition (one listing). */
  pendingDeltas(partition: string | null): Promise<Map<string, IndexDelta[]>> {
    if (partition === null) return this.#deltas()
    return this.#deltas(indexKeys.partitionDeltas(this.collection, partition))
  }

  /**
   * The records of pending deltas (those `only` accepts), read now (key → entry, null when the
   * record is gone); what a reader of the time view adds to it. `listed`: the deltas as listed
   * by `pendingDeltas(null)` before the reader read the view's catalog (a fold deletes deltas
   * only once the catalog holds their records, so a delta gone from that listing is in the
   * catalog read after it). Folds in the background the partitions whose deltas have settled.
   */
  async pendingEntries(
    listed: ReadonlyMap<string, IndexDelta[]>,
    only?: (key: string) => boolean,
  ): Promise<Map<string, IndexEntry | null>> {
    const keys = [...listed.values()]
      .flatMap((partitionDeltas) => recordKeysOf(partitionDeltas))
      .filter((key) => only?.(key) ?? true)
    const entries = new Map<string, IndexEntry>()
    await readRecords(this.#store, entries, this.#options, keys)
    for (const [partition, partitionDeltas] of listed) this.#foldLater(partition, partitionDeltas)
    return new Map(keys.map((key) => [key, entries.get(key) ?? null]))
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

  /** Whether every partition has been indexed (the marker blob). */
  isComplete(): Promise<boolean> {
    return this.isIndexed()
  }

  /** Records that every partition has a base (after a rebuild built the missing ones); true when all is complete. */
  markComplete(): Promise<boolean> {
    return this.markIndexed()
  }

  /** Writes the marker: every partition has a base. */
  protected async markIndexed(): Promise<boolean> {
    await this.#store.set(indexKeys.complete(this.collection), '', { onlyIfNew: true })
    return true
  }

  /** Whether every partition has been indexed (the marker blob). */
  async isIndexed(): Promise<boolean> {
    return (await this.#store.getMetadata(indexKeys.complete(this.collection))) !== null
  }

  async #etagOf(key: string): Promise<string | null> {
    return (await this.#store.getMetadata(key))?.etag ?? null
  }

  /**
   * The deltas, then the bases listed: a fold deletes deltas only once its base holds their
   * records, so a delta gone from the first listing is in the base listed (and read) after it.
   */
  async #deltasThenBases(): Promise<{
    listed: { bases: Map<string, string>; complete: boolean }
    deltas: Map<string, IndexDelta[]>
  }> {
    const deltas = await this.#deltas()
    return { listed: await this.#listBases(), deltas }
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
    const { partitioning, onDamagedIndex } = this.#options
    return deltasByPartition(this.#store, this.collection, prefix, partitioning, onDamagedIndex)
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
    await readRecords(this.#store, entries, this.#options, recordKeysOf(deltas))
    return entries
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
   * Indexes a collection of at most SMALL_COLLECTION records in the request (a new shop, a test):
   * every partition's base and the marker (what follows the index completes itself when read);
   * false when it is larger, and the background rebuild is needed.
   */
  protected async adoptSmall(): Promise<boolean> {
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
    return this.markIndexed()
  }

  protected kickRebuild(): void {
    const { scope, now, requestRebuild } = this.#options
    const last = lastKicks.get(scope) ?? -Infinity
    if (now() - last < REBUILD_KICK_INTERVAL_MS) return
    lastKicks.set(scope, now())
    requestRebuild()
  }
}
