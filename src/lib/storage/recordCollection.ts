import type { Store } from '@netlify/blobs'
import { ConcurrentChangeError } from '../errors.js'
import type { Partitioning } from './listing/partitioning.js'
import {
  RecordIndex,
  type CollectionCounts,
  type Listing,
  type RecordIndexOptions,
} from './listing/recordIndex.js'

export type { CollectionCounts, Listing } from './listing/recordIndex.js'
export { clearInstanceIndexes } from './listing/indexBase.js'

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

  constructor(
    store: Store,
    layout: CollectionLayout<T, Ref>,
    options: RecordCollectionOptions = {},
  ) {
    this.#store = store
    this.#layout = layout
    this.#onUnreadable = options.onUnreadable ?? (() => undefined)
    this.#updateAttempts = options.updateAttempts ?? DEFAULT_UPDATE_ATTEMPTS
    this.index = new RecordIndex(store, {
      ...options,
      scope: options.scope ?? crypto.randomUUID(),
      collection: layout.name,
      prefix: layout.prefix,
      partitioning: layout.partitioning,
      tally: (record) => layout.tally?.(record as T) ?? [],
      parse: (text) => this.#parse(text),
      onUnreadable: this.#onUnreadable,
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
    await this.index.announce(key)
    const { modified } = await this.#store.setJSON(key, record, { onlyIfNew: true })
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
    let announced = false
    for (let attempt = 1; attempt <= this.#updateAttempts; attempt++) {
      const found = await this.#read(key)
      if (!found) return null
      const next = change(found.record)
      if (next === found.record) return found.record
      if (!found.etag) throw new MissingEtagError(key)
      if (!announced) await this.index.announce(key)
      announced = true
      const { modified } = await this.#store.setJSON(key, next, { onlyIfMatch: found.etag })
      if (modified) return next
      // why: contenders that collided retry at different moments instead of colliding again
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt))
    }
    throw new RecordUpdateConflictError(key, this.#updateAttempts)
  }

  /** Deletes the record (readable or not); false when there was none. */
  async remove(ref: Ref): Promise<boolean> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return false
    const existing = await this.#store.getMetadata(key)
    if (!existing) return false
    await this.index.announce(key)
    await this.#store.delete(key)
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
