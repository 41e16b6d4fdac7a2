import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { ChangeJournal, type JournalEntry } from './changeJournal.js'
import {
  emptySnapshot,
  keepSnapshot,
  loadSnapshot,
  type ListingSnapshot,
} from './listingSnapshot.js'

export { clearInstanceSnapshots } from './listingSnapshot.js'

/**
 * A set of JSON records, one blob each, under one key prefix. The record blobs are the source of
 * truth. Listing goes through a snapshot that is brought up to date from the change journal
 * (which keys changed lately) and, every few minutes, checked against the store's own key
 * listing, so that listing 10,000 records costs a few requests plus the changed records.
 */
export interface CollectionLayout<Ref> {
  /** Journal and snapshot name, e.g. `reservations`. */
  name: string
  /** Prefix of every record key, e.g. `reservations/`. */
  prefix: string
  /** Blob key of the record `ref` names, or null when `ref` cannot name a record (bad segment). */
  keyOf(ref: Ref): string | null
}

export interface RecordCollectionOptions {
  /** Blob reads in flight at once while listing. Default: 50. */
  readConcurrency?: number
  /** Hands over work that may finish after the response (Netlify's `context.waitUntil`). Default: left running unawaited. */
  defer?: (work: Promise<unknown>) => void
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** How often every key is listed and compared, whatever the journal says (ms). Default: 600,000. */
  fullCheckIntervalMs?: number
  /** Told about failed background work (snapshot saves, journal pruning). Default: ignored. */
  onBackgroundError?: (work: string, error: unknown) => void
}

const DEFAULT_READ_CONCURRENCY = 50
const DEFAULT_FULL_CHECK_INTERVAL_MS = 10 * 60_000
// why: a journal entry is trusted as "its record write has landed" only this long after it was
// announced; until then its record is read again on every list
const SETTLE_MS = 10_000
// why: past this, reading the journal costs more than listing every key
const MAX_JOURNAL_SPAN_MS = 60 * 60_000
const JOURNAL_RETENTION_MS = 24 * 60 * 60_000
const PRUNE_LIMIT = 200

/** A key segment we generate or accept: no slash, no control characters, reasonable length. */
export function isSafeKeySegment(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 200 &&
    !/[/\\]/.test(value) &&
    ![...value].some((char) => char.charCodeAt(0) < 0x20) &&
    value !== '.' &&
    value !== '..'
  )
}

export class RecordCollection<T extends object, Ref> {
  readonly #store: Store
  readonly #layout: CollectionLayout<Ref>
  readonly #journal: ChangeJournal
  readonly #snapshotKey: string
  readonly #readConcurrency: number
  readonly #defer: (work: Promise<unknown>) => void
  readonly #now: () => number
  readonly #fullCheckIntervalMs: number
  readonly #onBackgroundError: (work: string, error: unknown) => void

  constructor(store: Store, layout: CollectionLayout<Ref>, options: RecordCollectionOptions = {}) {
    this.#store = store
    this.#layout = layout
    this.#journal = new ChangeJournal(store, layout.name)
    this.#snapshotKey = `snapshots/${layout.name}`
    this.#readConcurrency = options.readConcurrency ?? DEFAULT_READ_CONCURRENCY
    this.#defer = options.defer ?? (() => undefined)
    this.#now = options.now ?? Date.now
    this.#fullCheckIntervalMs = options.fullCheckIntervalMs ?? DEFAULT_FULL_CHECK_INTERVAL_MS
    this.#onBackgroundError = options.onBackgroundError ?? (() => undefined)
  }

  /** The record `ref` names, or null when there is none. */
  async get(ref: Ref): Promise<T | null> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return null
    return (await this.#store.get(key, { type: 'json' })) as T | null
  }

  /** Creates or replaces the record under its own key; other records are never touched. */
  async save(ref: Ref, record: T): Promise<void> {
    const key = this.#layout.keyOf(ref)
    if (key === null) throw new Error(`Cannot store a record under ${JSON.stringify(ref)}`)
    await this.#journal.announce(key, this.#now())
    await this.#store.setJSON(key, record)
  }

  /** Deletes the record; false when there was none. */
  async remove(ref: Ref): Promise<boolean> {
    const key = this.#layout.keyOf(ref)
    if (key === null) return false
    const existing = await this.#store.getMetadata(key)
    if (!existing) return false
    await this.#journal.announce(key, this.#now())
    await this.#store.delete(key)
    return true
  }

  /** Every record whose key starts with `prefix` (default: the whole collection), in no order. */
  async list(prefix: string = this.#layout.prefix): Promise<T[]> {
    const snapshot = await this.#synchronise()
    const records: T[] = []
    for (const [key, entry] of snapshot.entries) {
      if (key.startsWith(prefix)) records.push(entry.record as T)
    }
    return records
  }

  async #synchronise(): Promise<ListingSnapshot> {
    const now = this.#now()
    const loaded = await loadSnapshot(this.#store, this.#snapshotKey)
    const needsFullCheck =
      !loaded ||
      now - loaded.fullCheckAt > this.#fullCheckIntervalMs ||
      now - loaded.journalFrom > MAX_JOURNAL_SPAN_MS
    const snapshot = loaded ?? emptySnapshot()
    let changed = false
    if (needsFullCheck) {
      // why: the listing covers everything announced before the window; changes announced inside
      // it are read again from the journal, so a write landing during the listing is not missed
      snapshot.journalFrom = now - SETTLE_MS
      await this.#compareAllKeys(snapshot)
      snapshot.fullCheckAt = now
      changed = true
    }
    changed = (await this.#applyJournal(snapshot, now, needsFullCheck)) || changed
    const persisted = keepSnapshot(this.#store, this.#snapshotKey, snapshot, changed)
    if (persisted) this.#background('snapshot.save', persisted)
    if (needsFullCheck) {
      this.#background(
        'journal.prune',
        this.#journal.prune(now - JOURNAL_RETENTION_MS, PRUNE_LIMIT),
      )
    }
    return snapshot
  }

  /** Background work may fail without harm (the snapshot is a cache); it is reported, never thrown. */
  #background(work: string, promise: Promise<unknown>): void {
    this.#defer(promise.catch((error: unknown) => this.#onBackgroundError(work, error)))
  }

  /** Lists every record key and reads those whose etag differs from the snapshot's. */
  async #compareAllKeys(snapshot: ListingSnapshot): Promise<void> {
    const listed = new Map<string, string>()
    for await (const page of this.#store.list({ prefix: this.#layout.prefix, paginate: true })) {
      for (const blob of page.blobs) listed.set(blob.key, blob.etag)
    }
    for (const key of snapshot.entries.keys()) {
      if (!listed.has(key)) snapshot.entries.delete(key)
    }
    const stale = [...listed].filter(([key, etag]) => snapshot.entries.get(key)?.etag !== etag)
    await this.#read(
      snapshot,
      stale.map(([key, etag]) => ({ key, etag })),
    )
  }

  /**
   * Reads the records of journal entries not yet reflected. An entry is marked reflected once it
   * is older than SETTLE_MS; a full check covers entries announced well before it.
   */
  async #applyJournal(snapshot: ListingSnapshot, now: number, afterFullCheck: boolean) {
    const entries = await this.#journal.entriesBetween(snapshot.journalFrom, now)
    const pending = entries.filter((entry) => !snapshot.consumed.has(entry.key))
    const coveredBefore = afterFullCheck ? now - SETTLE_MS : -Infinity
    const keys = new Set(
      pending.filter((entry) => entry.at >= coveredBefore).map((entry) => entry.recordKey),
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

  async #read(snapshot: ListingSnapshot, keys: { key: string; etag: string | null }[]) {
    await mapWithConcurrency(keys, this.#readConcurrency, async ({ key, etag }) => {
      const found = await this.#store.getWithMetadata(key, { type: 'json' })
      if (found) snapshot.entries.set(key, { etag: etag ?? found.etag ?? null, record: found.data })
      else snapshot.entries.delete(key)
    })
  }
}

/** Drops consumed keys whose journal folder is no longer read (they cannot be listed again). */
function forgetConsumedBefore(snapshot: ListingSnapshot, listed: JournalEntry[]): void {
  const stillListed = new Set(listed.map((entry) => entry.key))
  for (const key of snapshot.consumed) {
    if (!stillListed.has(key)) snapshot.consumed.delete(key)
  }
}
