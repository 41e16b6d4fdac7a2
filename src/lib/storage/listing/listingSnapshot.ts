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

/**
 * The saved snapshot, or null when there is none. A damaged one (cut short, garbage, another
 * shape) or one of an older format is reported to `onDamaged` and answered as an empty snapshot
 * that has never been checked: the caller rebuilds it with a full check and saves it over the
 * damaged blob (compare-and-swap on the damaged blob's ETag).
 * `scope`: which blobs the store reaches (`storeScope`), so environments never mix.
 */
export async function loadSnapshot(
  store: Store,
  scope: string,
  key: string,
  onDamaged: (reason: string) => void = () => undefined,
): Promise<ListingSnapshot | null> {
  const cached = instanceSnapshots.get(`${scope}|${key}`)
  if (cached) return copy(cached)
  // why: a failed read costs a rebuild, as a missing snapshot does
  const found = await store.getWithMetadata(key, { type: 'text' }).catch(() => null)
  if (!found) return null
  const blob = parseSnapshotBlob(found.data)
  if (typeof blob === 'string') {
    onDamaged(blob)
    return { ...emptySnapshot(), blobEtag: found.etag ?? null }
  }
  return {
    entries: new Map(Object.entries(blob.entries)),
    consumed: new Set(blob.consumed),
    journalFrom: blob.journalFrom,
    fullCheckAt: blob.fullCheckAt,
    blobEtag: found.etag ?? null,
  }
}

/** The snapshot a blob holds, or why it holds none. */
function parseSnapshotBlob(text: string): SnapshotBlob | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text === '' ? 'empty' : 'not JSON'
  }
  const blob = value as Partial<SnapshotBlob> | null
  if (typeof blob !== 'object' || blob === null) return 'not a snapshot'
  if (blob.version !== SNAPSHOT_VERSION)
    return `format ${String(blob.version)}, not ${SNAPSHOT_VERSION}`
  const entriesOk =
    typeof blob.entries === 'object' &&
    blob.entries !== null &&
    Object.values(blob.entries).every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as SnapshotEntry).record === 'object' &&
        (typeof (entry as SnapshotEntry).etag === 'string' ||
          (entry as SnapshotEntry).etag === null),
    )
  const fieldsOk =
    Array.isArray(blob.consumed) &&
    blob.consumed.every((key) => typeof key === 'string') &&
    Number.isFinite(blob.journalFrom) &&
    Number.isFinite(blob.fullCheckAt)
  return entriesOk && fieldsOk ? (blob as SnapshotBlob) : 'fields missing or of another type'
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
