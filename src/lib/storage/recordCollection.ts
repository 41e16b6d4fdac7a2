import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { ConcurrentChangeError } from '../errors.js'
import { clearInstanceIndexes as clearBases, type IndexEntry } from './listing/indexBase.js'
import type { Partitioning } from './listing/partitioning.js'
import {
  RecordCounters,
  type CountedChange,
  type CountedGroup,
  type CounterLayout,
  type CountsRead,
} from './listing/recordCounters.js'
import {
  RecordIndex,
  type CollectionCounts,
  type Listing,
  type RecordIndexOptions,
} from './listing/recordIndex.js'
import { clearTimeViewBlobs } from './listing/timeBlobs.js'
import type { ViewSnapshot } from './listing/timeReads.js'
import { TimeView, type TimeLayout } from './listing/timeView.js'

export type { CollectionCounts, Listing } from './listing/recordIndex.js'

/** Forgets every index blob this instance holds, as a cold start would (tests and benchmarks). */
export function clearInstanceIndexes(): void {
  clearBases()
  clearTimeViewBlobs()
}

/**
 * A set of JSON records, one blob each, under one key prefix. The record blobs are the source of
 * truth, and every change is a compare-and-swap on one of them:
 *
 * - `create` writes only if the key is new (`onlyIfNew`);
 * - `update` reads the record with its ETag, applies the change and writes only if the blob still
 *   has that ETag (`onlyIfMatch`); when another write came first it reads again and re-applies
 *   the change, a few times, then gives up with `RecordUpdateConflictError`;
 * - `remove` deletes; an update that read the record before the delete then finds its ETag gone
 *   and sees the record missing, so a deleted record never comes back.
 *
 * Lists go through the collection's index (listing/recordIndex.ts): every write announces
 * itself there before it writes the record.
 */
export interface CollectionLayout<T, Ref> {
  /** Name in index keys, e.g. `reservations`. */
  name: string
  /** Prefix of every record key, e.g. `reservations/`. */
  prefix: string
  /** Blob key of the record `ref` names, or null when `ref` cannot name a record (bad segment). */
  keyOf(ref: Ref): string | null
  /** Whether a parsed blob has the record's shape (a blob edited by hand may not). */
  isRecord(value: unknown): value is T
  /** How the index splits the records (listing/partitioning.ts). */
  partitioning: Partitioning
  /** What a record counts as in the index's counts (statistics). Default: nothing. */
  tally?(record: T): readonly string[]
  /** What the collection's counters count records by, kept at every write (recordCounters.ts). Default: no counters. */
  counters?: CounterLayout
  /** How the collection's lists order and split records (timeView.ts). Default: no time view. */
  timeView?: TimeLayout
}

/**
 * The index's options (listing/recordIndex.ts, where each is described with its default), all
 * optional here: `scope` defaults to a scope of this collection alone, and `onUnreadable` to
 * ignoring the blob.
 */
export interface RecordCollectionOptions extends Partial<
  Pick<
    RecordIndexOptions,
    | 'scope'
    | 'readConcurrency'
    | 'defer'
    | 'now'
    | 'onBackgroundError'
    | 'onDamagedIndex'
    | 'onUnreadable'
    | 'requestRebuild'
  >
> {
  /** Reads and writes an update may take before it gives up. Default: 5. */
  updateAttempts?: number
  /** Records per time segment at most (timeView.ts). Default: 1,000. */
  maxSegment?: number
  /** Search rows per chunk at most (timeView.ts). Default: 16,000. */
  maxChunk?: number
}

/** What `updateMany` wrote: the records' new entries and the delta that announced them (for `absorb`). */
export interface WrittenBatch {
  partition: string
  entries: Map<string, IndexEntry>
  delta: string
}

/** What `update` does with a record: the record to write, or the same object to write nothing. */
export type RecordChange<T> = (current: T) => T

/** A record kept changing under an update, more often than it tries; nothing was written. */
export class RecordUpdateConflictError extends ConcurrentChangeError {
  override name = 'RecordUpdateConflictError'
  constructor(key: string, attempts: number) {
    super(
      key,
      `${key} was changed by other requests during each of ${attempts} attempts to update it; ` +
        'nothing was written. Send the request again.',
    )
  }
}

/** The Blobs server answered a read without an ETag, so no compare-and-swap is possible. */
export class MissingEtagError extends Error {
  override name = 'MissingEtagError'
  constructor(key: string) {
    super(
      `The Blobs server answered ${key} without an ETag. Netlify's Blobs always sends one; ` +
        'locally, use platform/atomicBlobsServer.ts (npm start and the tests do).',
    )
  }
}

const DEFAULT_UPDATE_ATTEMPTS = 5

export class RecordCollection<T extends object, Ref> {
  readonly #store: Store
  readonly #layout: CollectionLayout<T, Ref>
  /** The collection's index, for its upkeep (indexMaintenance.ts). */
  readonly index: RecordIndex
  readonly #onUnreadable: (key: string) => void
  readonly #updateAttempts: number
  readonly #counters: RecordCounters | null
  readonly #timeView: TimeView | null
  readonly #onCountFailed: (error: unknown) => void

  constructor(
    store: Store,
    layout: CollectionLayout<T, Ref>,
    options: RecordCollectionOptions = {},
  ) {
    this.#store = store
    this.#layout = layout
    this.#onUnreadable = options.onUnreadable ?? (() => undefined)
    this.#updateAttempts = options.updateAttempts ?? DEFAULT_UPDATE_ATTEMPTS
    const scope = options.scope ?? crypto.randomUUID()
    const now = options.now ?? Date.now
    this.#counters = layout.counters
      ? new RecordCounters(store, { collection: layout.name, layout: layout.counters, now })
      : null
    this.#timeView = layout.timeView
      ? new TimeView(store, {
          collection: layout.name,
          scope,
          layout: layout.timeView,
          now,
          maxSegment: options.maxSegment,
          maxChunk: options.maxChunk,
          onDamaged: options.onDamagedIndex,
        })
      : null
    const report = options.onBackgroundError ?? (() => undefined)
    this.#onCountFailed = (error) => report('counters.add', error)
    this.index = new RecordIndex(store, {
      ...options,
      scope,
      collection: layout.name,
      prefix: layout.prefix,
      partitioning: layout.partitioning,
      tally: (record) => layout.tally?.(record as T) ?? [],
      parse: (text) => this.#parse(text),
      onUnreadable: this.#onUnreadable,
      timeView: this.#timeView,
      counters: this.#counters,
    })
  }

  /** The record `ref` names, or null when there is none (or its blob is not a readable record). */
  async get(ref: Ref): Promise<T | null> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return null
    return (await this.#read(key))?.record ?? null
  }

  /** Stores a new record; false (and nothing written) when its key already exists. */
  async create(ref: Ref, record: T): Promise<boolean> {
    const key = this.#requireKey(ref)
    const delta = await this.index.announce(key)
    const { modified } = await this.#store.setJSON(key, record, { onlyIfNew: true })
    if (modified) await this.#count([{ before: null, after: record, delta }])
    return modified
  }

  /**
   * Applies `change` to the stored record with compare-and-swap (see the class comment) and
   * answers the record as written, or null when there is no record (or `ref` names none). `change` may run more than
   * once, each time on the record as it then is; what it throws is thrown, and nothing is written.
   */
  async update(ref: Ref, change: RecordChange<T>): Promise<T | null> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return null
    const updated = await this.#update(key, change, null)
    if (updated?.written) {
      await this.#count([
        { before: updated.written.before, after: updated.record, delta: updated.written.delta },
      ])
    }
    return updated?.record ?? null
  }

  /**
   * `update` of the record under `key`; `delta`: the delta that announced it already (else it
   * is announced before the first write). The record as written (or found unchanged), its ETag
   * and, when it wrote, what it replaced and the delta; null when there is no record.
   */
  async #update(
    key: string,
    change: RecordChange<T>,
    delta: string | null,
  ): Promise<{
    record: T
    etag: string | null
    written?: { before: T; delta: string }
  } | null> {
    let announced = delta
    for (let attempt = 1; attempt <= this.#updateAttempts; attempt++) {
      const found = await this.#read(key)
      if (!found) return null
      const next = change(found.record)
      if (next === found.record) return { record: found.record, etag: found.etag ?? null }
      if (!found.etag) throw new MissingEtagError(key)
      announced ??= await this.index.announce(key)
      const { modified, etag } = await this.#store.setJSON(key, next, { onlyIfMatch: found.etag })
      if (modified) {
        return {
          record: next,
          etag: etag ?? null,
          written: { before: found.record, delta: announced },
        }
      }
      // why: contenders that collided retry at different moments instead of colliding again
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt))
    }
    throw new RecordUpdateConflictError(key, this.#updateAttempts)
  }

  /**
   * `update` of many records of one partition at once (a delivery marking its recipients): one
   * delta announces them all, and each record is written by compare-and-swap with the ETag the
   * instance's index holds for it, without a read; a record changed since (the ETag no longer
   * matches) is read and changed as `update` does. Hand the answer to `absorb`, so the index
   * takes the records without reading them again.
   */
  async updateMany(refs: readonly Ref[], change: RecordChange<T>): Promise<WrittenBatch | null> {
    const keys = refs.map((ref) => this.#layout.keyOf(ref)).filter((key) => key !== null)
    const partition = keys.length > 0 ? this.#layout.partitioning.of(keys[0]) : null
    if (partition === null) return null
    const held = await this.index.heldEntries(partition)
    const delta = await this.index.announceMany(keys)
    const entries = new Map<string, IndexEntry>()
    const changes: CountedChange[] = []
    await mapWithConcurrency(keys, 10, async (key) => {
      const entry = held?.get(key)
      if (entry?.etag && entry.record !== null) {
        const current = entry.record as T
        const next = change(current)
        // why: a copy that asks for no change may be older than the record: it is read
        const written =
          next === current
            ? { modified: false, etag: undefined }
            : await this.#store.setJSON(key, next, { onlyIfMatch: entry.etag })
        if (written.modified && written.etag) {
          entries.set(key, { etag: written.etag, record: next })
          changes.push({ before: current, after: next })
          return
        }
      }
      const updated = await this.#update(key, change, delta)
      if (updated?.written) changes.push({ before: updated.written.before, after: updated.record })
      if (updated?.etag) entries.set(key, { etag: updated.etag, record: updated.record })
    })
    await this.#count(changes.length > 0 ? [...changes, { before: null, after: null, delta }] : [])
    return { partition, entries, delta }
  }

  /**
   * Takes batches `updateMany` wrote into the index of their partition without reading their
   * records again (one base write and one view change for all of them), or folds the partition
   * when its base changed meanwhile.
   */
  async absorb(batches: readonly WrittenBatch[]): Promise<void> {
    const byPartition = new Map<string, WrittenBatch[]>()
    for (const batch of batches) {
      byPartition.set(batch.partition, [...(byPartition.get(batch.partition) ?? []), batch])
    }
    for (const [partition, written] of byPartition) {
      const entries = new Map(written.flatMap((batch) => [...batch.entries]))
      const deltas = written.map((batch) => batch.delta)
      if (!(await this.index.absorb(partition, entries, deltas))) await this.index.fold(partition)
    }
  }

  /** Adds the changes of writes to the counters; a failure leaves them not ready (reconciled later). */
  async #count(changes: readonly CountedChange[]): Promise<void> {
    if (!this.#counters || changes.length === 0) return
    try {
      await this.#counters.add(changes)
    } catch (error) {
      this.#onCountFailed(error)
      await this.#counters.setReady(false).catch(() => undefined)
    }
  }

  /** The counters when exact (null: not ready, or none: read the index's counts instead). */
  protected readyCounts(options?: { completing?: boolean }): Promise<CountsRead | null> {
    return this.index.readyCounts(options)
  }

  /**
   * Counts by group (every dimension counted), or null while the counters are not exact.
   * `completing` (default true): a small collection's counters are made exact here, a larger
   * one's rebuild started; false: neither.
   */
  async groupCounts(options?: { completing?: boolean }): Promise<CountedGroup[] | null> {
    const counters = this.#counters
    const counts = counters ? await this.readyCounts(options) : null
    if (!counters || !counts) return null
    return [...counts.groups].map(([key, amounts]) => counters.describe(key, amounts))
  }

  /** The counters of this collection (null: none). */
  protected get counters(): RecordCounters | null {
    return this.#counters
  }

  /**
   * The time view with a complete catalog and the records of pending writes, to read a list
   * from (timeReads.ts); null while the view is not complete (read the index instead).
   */
  protected async viewSnapshot(): Promise<ViewSnapshot | null> {
    if (!this.#timeView) return null
    // why: the deltas before the catalog: a fold deletes its deltas only once the catalog
    // holds their records, so a write whose delta is gone from this listing is in the catalog
    // read next (read the other way round, a fold in between hides its records from both)
    const listed = await this.index.pendingDeltas(null)
    const catalog = await this.index.viewCatalog()
    if (!catalog) return null
    return { view: this.#timeView, catalog, pending: await this.index.pendingEntries(listed) }
  }

  /** Deletes the record (readable or not); false when there was none. */
  async remove(ref: Ref): Promise<boolean> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return false
    const existing = await this.#store.get(key, { type: 'text' })
    if (existing === null) return false
    const delta = await this.index.announce(key)
    await this.#store.delete(key)
    await this.#count([{ before: this.#parse(existing), after: null, delta }])
    return true
  }

  /** Every record of the collection, in no order, and the keys of unreadable blobs (skipped). */
  list(): Promise<Listing<T>> {
    return this.index.all<T>()
  }

  /**
   * Visits every record of the collection, in no order, without holding them all (aggregates
   * over 100,000 records); answers the keys of unreadable blobs and `rebuilding` as `list` does.
   */
  scan(visit: (record: T) => void): Promise<Omit<Listing<T>, 'records'>> {
    return this.index.scan<T>(visit)
  }

  /** Counts of the whole collection from the index (layout `tally`), without reading records. */
  counts(): Promise<CollectionCounts> {
    return this.index.counts()
  }

  /**
   * Writes the changes announced in `partition` (a product's slug; `all` for a collection of
   * one partition) into its index now. Call it after a batch of writes (bulk actions, a
   * delivery batch), so the next list reads one base instead of every changed record.
   */
  fold(partition: string): Promise<boolean> {
    return this.index.fold(partition)
  }

  /**
   * Every record whose key starts with `prefix`, a prefix inside one index partition (reads
   * only that partition).
   */
  protected listUnder(prefix: string): Promise<Listing<T>> {
    const partition = this.#layout.partitioning.of(prefix)
    if (partition === null) return Promise.resolve({ records: [], unreadableKeys: [] })
    return this.index.partition<T>(partition, prefix)
  }

  #requireKey(ref: Ref): string {
    const key = this.#layout.keyOf(ref)
    if (key === null) throw new Error(`Cannot store a record under ${JSON.stringify(ref)}`)
    return key
  }

  async #read(key: string): Promise<{ record: T; etag: string | undefined } | null> {
    const found = await this.#store.getWithMetadata(key, { type: 'text' })
    if (!found) return null
    const record = this.#parse(found.data)
    if (record === null) {
      this.#onUnreadable(key)
      return null
    }
    return { record, etag: found.etag }
  }

  #parse(text: string): T | null {
    try {
      const value: unknown = JSON.parse(text)
      return this.#layout.isRecord(value) ? value : null
    } catch {
      return null
    }
  }
}
