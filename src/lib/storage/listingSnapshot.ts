import type { Store } from '@netlify/blobs'

/**
 * What a collection knows about its records between requests: every record with the etag it was
 * read at, which journal entries are already reflected, and when the keys were last listed.
 * It is only a cache: losing it, or a concurrent save overwriting it, costs reads, never data.
 */
export interface ListingSnapshot {
  entries: Map<string, { etag: string | null; record: unknown }>
  /** Journal entry keys already reflected in `entries`. */
  consumed: Set<string>
  /** Journal folders from this time on are still read (ms). */
  journalFrom: number
  /** When every record key was last listed and compared (ms). */
  fullCheckAt: number
}

interface SnapshotBlob {
  version: typeof SNAPSHOT_VERSION
  entries: Record<string, { etag: string | null; record: unknown }>
  consumed: string[]
  journalFrom: number
  fullCheckAt: number
}

const SNAPSHOT_VERSION = 2

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
  return { entries: new Map(), consumed: new Set(), journalFrom: 0, fullCheckAt: 0 }
}

export async function loadSnapshot(store: Store, key: string): Promise<ListingSnapshot | null> {
  const cached = instanceSnapshots.get(cacheKey(store, key))
  if (cached) return copy(cached)
  // why: an unreadable snapshot (or one of an older format) is rebuilt by a full check
  const blob = (await store.get(key, { type: 'json' }).catch(() => null)) as SnapshotBlob | null
  if (blob?.version !== SNAPSHOT_VERSION) return null
  return {
    entries: new Map(Object.entries(blob.entries)),
    consumed: new Set(blob.consumed),
    journalFrom: blob.journalFrom,
    fullCheckAt: blob.fullCheckAt,
  }
}

/** Keeps the snapshot for this instance and, when `persist`, writes it for the others. */
export function keepSnapshot(
  store: Store,
  key: string,
  snapshot: ListingSnapshot,
  persist: boolean,
): Promise<unknown> | null {
  instanceSnapshots.set(cacheKey(store, key), copy(snapshot))
  if (!persist) return null
  const blob: SnapshotBlob = {
    version: SNAPSHOT_VERSION,
    entries: Object.fromEntries(snapshot.entries),
    consumed: [...snapshot.consumed],
    journalFrom: snapshot.journalFrom,
    fullCheckAt: snapshot.fullCheckAt,
  }
  return store.setJSON(key, blob)
}

function cacheKey(store: Store, key: string): string {
  const storeName = (store as unknown as { name?: string }).name ?? ''
  return `${blobsEnvironment()}|${storeName}|${key}`
}

// why: tests and the benchmark run several blob servers in one process; a snapshot from one
// must never be used against another
function blobsEnvironment(): string {
  const raw =
    (globalThis as { netlifyBlobsContext?: string }).netlifyBlobsContext ??
    process.env.NETLIFY_BLOBS_CONTEXT
  if (!raw) return ''
  try {
    const context = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'))
    return `${context.siteID ?? ''}|${context.edgeURL ?? context.apiURL ?? ''}`
  } catch {
    return ''
  }
}
