import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import type { IndexEntry } from './indexBase.js'
import type { Partitioning } from './partitioning.js'

/**
 * Reading records into a partition's entries (partitionIndex.ts): again by key, or every key a
 * listing shows whose ETag differs; and what a fold changed.
 */

/** How records are read: in flight at once, parsed, reported when unreadable. */
export interface RecordReading {
  readConcurrency: number
  /** The record a blob holds, or null when it is not one. */
  parse: (text: string) => unknown
  onUnreadable: (key: string) => void
}

/** What a fold changed: the keys it read or found changed, or every key (a base built anew). */
export type Changed = Set<string> | 'all'

/** Reads `keys` into `entries` (a gone record is removed); true when any entry changed. */
export async function readRecords(
  store: Store,
  entries: Map<string, IndexEntry>,
  reading: RecordReading,
  keys: readonly string[],
): Promise<boolean> {
  const { readConcurrency, parse, onUnreadable } = reading
  let changed = false
  await mapWithConcurrency(keys, readConcurrency, async (key) => {
    const found = await store.getWithMetadata(key, { type: 'text' })
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
export async function compareWithKeys(
  store: Store,
  entries: Map<string, IndexEntry>,
  partition: string,
  reading: RecordReading & { partitioning: Partitioning },
): Promise<boolean> {
  const { partitioning } = reading
  const listed = new Map<string, string>()
  for await (const page of store.list({ prefix: partitioning.prefix(partition), paginate: true })) {
    for (const blob of page.blobs) {
      if (partitioning.of(blob.key) === partition) listed.set(blob.key, blob.etag)
    }
  }
  let changed = false
  for (const key of entries.keys()) {
    if (!listed.has(key)) changed = entries.delete(key) || changed
  }
  const stale = [...listed].filter(([key, etag]) => entries.get(key)?.etag !== etag)
  const read = await readRecords(
    store,
    entries,
    reading,
    stale.map(([key]) => key),
  )
  return read || changed
}

/** Keys whose record a fold read again (`read`), or whose entry it found changed. */
export function changedKeys(
  before: ReadonlyMap<string, IndexEntry>,
  after: ReadonlyMap<string, IndexEntry>,
  read: readonly string[],
): Changed {
  const changed = new Set(read)
  for (const [key, entry] of after) if (before.get(key)?.etag !== entry.etag) changed.add(key)
  for (const key of before.keys()) if (!after.has(key)) changed.add(key)
  return changed
}

/** Adds the records of `entries` (keys under `under`) to a listing; unreadable ones by key. */
export function addTo<T>(
  listing: { records: T[]; unreadableKeys: string[] },
  entries: ReadonlyMap<string, IndexEntry>,
  under = '',
): void {
  for (const [key, entry] of entries) {
    if (!key.startsWith(under)) continue
    if (entry.record === null) listing.unreadableKeys.push(key)
    else listing.records.push(entry.record as T)
  }
}
