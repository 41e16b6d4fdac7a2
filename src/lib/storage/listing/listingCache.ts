import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import { ChangeJournal, type JournalEntry } from './changeJournal.js'
import {
  emptySnapshot,
  keepSnapshot,
  loadSnapshot,
  type ListingSnapshot,
} from './listingSnapshot.js'

/**
 * The listing cache of one record collection: what lets an admin list 10,000 records with a few
 * blob requests instead of 10,000.
 *
 * **Contract.** Every write of a record goes through `announce(key)` before the record blob is
 * written. Then `all()` answers every record of the collection, and `under(prefix)` every record
 * under `prefix`, as left by each write that completed before the call began. A write made
 * around this cache (an edit in the Netlify UI, a writer that died between its announcement and
 * its write) shows up in `all()` within `fullCheckIntervalMs`, and in `under()` at once.
 *
 * How: a snapshot of every record with the ETag it was read at, kept in the instance and saved
 * as a blob; a change journal of which keys were written lately (see changeJournal.ts); and,
 * every few minutes, a comparison with the store's own key listing. `under()` lists only its
 * prefix's keys and ETags and reads the records whose ETag changed.
 */
export interface ListingCacheOptions {
  /** Journal and snapshot name, e.g. `reservations`. */
  name: string
  /** Prefix of every record key, e.g. `reservations/`. */
  prefix: string
  /** Which blobs the store reaches (`storeScope`); the instance cache is kept per scope. */
  scope: string
  /** The record a blob holds, or null when it is not one (damaged, hand-edited). */
  parse: (text: string) => unknown
  /** Told once per read of a blob that is not a record. */
  onUnreadable: (key: string) => void
  /** Blob reads in flight at once. Default: 50. */
  readConcurrency?: number
  /** Hands over work that may finish after the response (`context.waitUntil`). Default: left running. */
  defer?: (work: Promise<unknown>) => void
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** How often `all()` compares every key, whatever the journal says (ms). Default: 600,000. */
  fullCheckIntervalMs?: number
  /** Told about failed background work (snapshot saves, journal pruning). Default: ignored. */
  onBackgroundError?: (work: string, error: unknown) => void
  /**
   * Told about a damaged cache blob (snapshot, journal entry), which is then ignored and rebuilt:
   * the blob's key and what is wrong with it. Default: ignored.
   */
  onDamagedCache?: (key: string, problem: string) => void
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

// why: a journal entry is trusted as "its record write has landed" only this long after it was
// announced; until then its record is read again on every list
const SETTLE_MS = 10_000
// why: past this, reading the journal costs more than listing every key
const MAX_JOURNAL_SPAN_MS = 60 * 60_000
const JOURNAL_RETENTION_MS = 24 * 60 * 60_000
const PRUNE_LIMIT = 200

export class ListingCache {
  readonly #store: Store
  readonly #options: Required<ListingCacheOptions>
  readonly #journal: ChangeJournal
  readonly #snapshotKey: string

  constructor(store: Store, options: ListingCacheOptions) {
    this.#store = store
    this.#options = {
      readConcurrency: 50,
      defer: () => undefined,
      now: Date.now,
      fullCheckIntervalMs: 10 * 60_000,
      onBackgroundError: () => undefined,
      onDamagedCache: () => undefined,
      ...options,
    }
    this.#journal = new ChangeJournal(store, options.name, this.#options.onDamagedCache)
    this.#snapshotKey = `snapshots/${options.name}`
  }

  /** Call before writing or deleting the record under `key`. */
  announce(key: string): Promise<void> {
    return this.#journal.announce(key, this.#options.now())
  }

  /** Every record of the collection. */
  async all<T>(): Promise<Listing<T>> {
    const snapshot = await this.#synchronise()
    return listingOf<T>(snapshot, this.#options.prefix)
  }

  /** Every record under `prefix` (one key listing of that prefix, reads of what changed). */
  async under<T>(prefix: string): Promise<Listing<T>> {
    const { scope } = this.#options
    const snapshot = (await this.#loadSnapshot()) ?? emptySnapshot()
    await this.#compareKeys(snapshot, prefix)
    await keepSnapshot(this.#store, scope, this.#snapshotKey, snapshot, false)
    return listingOf<T>(snapshot, prefix)
  }

  async #synchronise(): Promise<ListingSnapshot> {
    const { now: clock, fullCheckIntervalMs, scope, prefix } = this.#options
    const now = clock()
    const loaded = await this.#loadSnapshot()
    const needsFullCheck =
      !loaded ||
      now - loaded.fullCheckAt > fullCheckIntervalMs ||
      now - loaded.journalFrom > MAX_JOURNAL_SPAN_MS
    const snapshot = loaded ?? emptySnapshot()
    let changed = false
    if (needsFullCheck) {
      // why: the listing covers everything announced before the window; changes announced inside
      // it are read again from the journal, so a write landing during the listing is not missed
      snapshot.journalFrom = now - SETTLE_MS
      await this.#compareKeys(snapshot, prefix)
      snapshot.fullCheckAt = now
      changed = true
    }
    changed = (await this.#applyJournal(snapshot, now, needsFullCheck)) || changed
    this.#background(
      'snapshot.save',
      keepSnapshot(this.#store, scope, this.#snapshotKey, snapshot, changed),
    )
    if (needsFullCheck) {
      this.#background(
        'journal.prune',
        this.#journal.prune(now - JOURNAL_RETENTION_MS, PRUNE_LIMIT),
      )
    }
    return snapshot
  }

  #loadSnapshot(): Promise<ListingSnapshot | null> {
    const { scope, onDamagedCache } = this.#options
    return loadSnapshot(this.#store, scope, this.#snapshotKey, (problem) =>
      onDamagedCache(this.#snapshotKey, problem),
    )
  }

  /** Background work may fail without harm (the snapshot is a cache); it is reported, never thrown. */
  #background(work: string, promise: Promise<unknown>): void {
    this.#options.defer(
      promise.catch((error: unknown) => this.#options.onBackgroundError(work, error)),
    )
  }

  /** Lists every key under `prefix` and reads those whose ETag differs from the snapshot's. */
  async #compareKeys(snapshot: ListingSnapshot, prefix: string): Promise<void> {
    const listed = new Map<string, string>()
    for await (const page of this.#store.list({ prefix, paginate: true })) {
      for (const blob of page.blobs) listed.set(blob.key, blob.etag)
    }
    for (const key of snapshot.entries.keys()) {
      if (key.startsWith(prefix) && !listed.has(key)) snapshot.entries.delete(key)
    }
    const stale = [...listed]
      .filter(([key, etag]) => snapshot.entries.get(key)?.etag !== etag)
      .map(([key, etag]) => ({ key, etag }))
    await this.#read(snapshot, stale)
  }

  /**
   * Reads the records of journal entries not yet reflected. An entry is marked reflected once it
   * is older than SETTLE_MS; a full check covers entries announced well before it.
   */
  async #applyJournal(snapshot: ListingSnapshot, now: number, afterFullCheck: boolean) {
    const entries = await this.#journal.entriesBetween(snapshot.journalFrom, now)
    const pending = entries.filter((entry) => !snapshot.consumed.has(entry.key))
    const strays = pending.filter((entry) => !entry.recordKey.startsWith(this.#options.prefix))
    if (strays.length > 0) {
      this.#options.onDamagedCache(
        strays[0].key,
        `names no record of this collection (${strays.length} such entries, ignored)`,
      )
    }
    const coveredBefore = afterFullCheck ? now - SETTLE_MS : -Infinity
    const keys = new Set(
      pending
        .filter((entry) => entry.at >= coveredBefore && !strays.includes(entry))
        .map((entry) => entry.recordKey),
    )
    await this.#read(
      snapshot,
      [...keys].map((key) => ({ key, etag: null })),
    )
    let changed = keys.size > 0
    for (const entry of pending) {
      if (entry.at < now - SETTLE_MS) {
        snapshot.consumed.add(entry.key)
        changed = true
      }
    }
    snapshot.journalFrom = Math.max(snapshot.journalFrom, now - SETTLE_MS)
    forgetConsumedBefore(snapshot, entries)
    return changed
  }

  /** Reads `keys`; an entry keeps the listed ETag when there is one (what the next check compares). */
  async #read(snapshot: ListingSnapshot, keys: { key: string; etag: string | null }[]) {
    const { readConcurrency, parse, onUnreadable } = this.#options
    await mapWithConcurrency(keys, readConcurrency, async ({ key, etag }) => {
      const found = await this.#store.getWithMetadata(key, { type: 'text' })
      if (!found) {
        snapshot.entries.delete(key)
        return
      }
      const record = parse(found.data)
      if (record === null) onUnreadable(key)
      snapshot.entries.set(key, { etag: etag ?? found.etag ?? null, record })
    })
  }
}

function listingOf<T>(snapshot: ListingSnapshot, prefix: string): Listing<T> {
  const listing: Listing<T> = { records: [], unreadableKeys: [] }
  for (const [key, entry] of snapshot.entries) {
    if (!key.startsWith(prefix)) continue
    if (entry.record === null) listing.unreadableKeys.push(key)
    else listing.records.push(entry.record as T)
  }
  return listing
}

/** Drops consumed keys whose journal folder is no longer read (they cannot be listed again). */
function forgetConsumedBefore(snapshot: ListingSnapshot, listed: JournalEntry[]): void {
  const stillListed = new Set(listed.map((entry) => entry.key))
  for (const key of snapshot.consumed) {
    if (!stillListed.has(key)) snapshot.consumed.delete(key)
  }
}
