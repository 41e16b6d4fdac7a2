import type { Store } from '@netlify/blobs'

/**
 * What a collection knows about its records between requests: every record with the etag it was
 * read at, which journal entries are already reflected, and when the keys were last listed.
 * It is only a cache: losing it, or a concurrent save overwriting it, costs reads, never data.
 */
export interface ListingSnapshot {
  entries: Map<string, SnapshotEntry>
  /** Journal entry keys already reflected in `entries`. */
  consumed: Set<string>
  /** Journal folders from this time on are still read (ms). */
  journalFrom: number
  /** When every record key was last listed and compared (ms). */
  fullCheckAt: number
  /** ETag of the saved snapshot blob this one continues; null when none was saved yet. */
  blobEtag: string | null
}

/** One record as last read; `record` is null when the blob could not be read as a record. */
export interface SnapshotEntry {
  etag: string | null
  record: unknown
}

interface SnapshotBlob {
  version: typeof SNAPSHOT_VERSION
  entries: Record<string, SnapshotEntry>
  consumed: string[]
  journalFrom: number
  fullCheckAt: number
}

const SNAPSHOT_VERSION = 3

/** Snapshots kept by this function instance between requests (checked before every use). */
const instanceSnapshots = new Map<string, ListingSnapshot>()

/** Forgets the snapshots this instance holds, as a cold start would (tests and benchmarks). */
export function clearInstanceSnapshots(): void {
  instanceSnapshots.clear()
}

function copy(snapshot: ListingSnapshot): ListingSnapshot {
  return { ...snapshot, entries: new Map(snapshot.entries), consumed: new Set(snapshot.consumed) }
}

export function emptySnapshot(): ListingSnapshot {
  return {
    entries: new Map(),
    consumed: new Set(),
    journalFrom: 0,
    fullCheckAt: 0,
    blobEtag: null,
  }
}

/** `scope`: which blobs the store reaches (`storeScope`), so environments never mix. */
export async function loadSnapshot(
  store: Store,
  scope: string,
  key: string,
): Promise<ListingSnapshot | null> {
  const cached = instanceSnapshots.get(`${scope}|${key}`)
  if (cached) return copy(cached)
  // why: an unreadable snapshot (or one of an older format) is rebuilt by a full check
  const found = await store.getWithMetadata(key, { type: 'json' }).catch(() => null)
  const blob = found?.data as SnapshotBlob | undefined
  if (blob?.version !== SNAPSHOT_VERSION) return null
  return {
    entries: new Map(Object.entries(blob.entries)),
    consumed: new Set(blob.consumed),
    journalFrom: blob.journalFrom,
    fullCheckAt: blob.fullCheckAt,
    blobEtag: found?.etag ?? null,
  }
}

/**
 * Keeps the snapshot for this instance and, when `persist`, writes it for the others, only over
 * the saved snapshot it continues: when another instance saved one meanwhile, theirs stays (it is
 * as good a cache) and this instance reads it on its next list.
 */
export async function keepSnapshot(
  store: Store,
  scope: string,
  key: string,
  snapshot: ListingSnapshot,
  persist: boolean,
): Promise<void> {
  const cacheKey = `${scope}|${key}`
  const kept = copy(snapshot)
  instanceSnapshots.set(cacheKey, kept)
  if (!persist) return
  const blob: SnapshotBlob = {
    version: SNAPSHOT_VERSION,
    entries: Object.fromEntries(snapshot.entries),
    consumed: [...snapshot.consumed],
    journalFrom: snapshot.journalFrom,
    fullCheckAt: snapshot.fullCheckAt,
  }
  const condition = snapshot.blobEtag ? { onlyIfMatch: snapshot.blobEtag } : { onlyIfNew: true }
  const { modified, etag } = await store.setJSON(key, blob, condition)
  if (instanceSnapshots.get(cacheKey) !== kept) return
  // why: after another instance's save, continue from theirs (read again on the next list)
  if (modified) kept.blobEtag = etag ?? null
  else instanceSnapshots.delete(cacheKey)
}
