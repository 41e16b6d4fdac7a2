import type { Store } from '@netlify/blobs'

/**
 * The base blob of one index partition: every record of the partition with the ETag it was read
 * at (`record` null: the blob is not a readable record), and in the blob's metadata its counts,
 * so that statistics read a few hundred bytes per partition instead of its records.
 */
export interface IndexEntry {
  etag: string | null
  record: unknown
}

/** A base as read: its blob's ETag and entries. */
export interface IndexBase {
  etag: string
  entries: Map<string, IndexEntry>
}

/** What a base's metadata says: records, unreadable blobs, and the collection's tallies. */
export interface IndexCounts {
  records: number
  unreadable: number
  tallies: Record<string, number>
}

/** Names what a record counts as (`status:pending`, `product:kyusu`); none by default. */
export type Tally = (record: unknown) => readonly string[]

interface BaseBlob {
  format: typeof BASE_FORMAT
  entries: Record<string, IndexEntry>
}

const BASE_FORMAT = 1

/** Bases this instance has read or written, by scope and key (an optimisation only: checked by ETag). */
const instanceBases = new Map<string, IndexBase>()
/** Counts this instance has read or written, by scope and key, with the base's ETag. */
const instanceCounts = new Map<string, { etag: string; counts: IndexCounts }>()

/** Forgets the bases this instance holds, as a cold start would (tests and benchmarks). */
export function clearInstanceIndexes(): void {
  instanceBases.clear()
  instanceCounts.clear()
}

/**
 * The base under `key`; `listedEtag` (from a key listing) lets a base this instance holds be
 * used without a request. Null when there is none; `damaged` when the blob is not a base (it is
 * then treated as missing, and a rebuild writes over it). `keep`: the base read is kept in the
 * instance (default); a scan of the whole collection keeps none.
 */
export async function readBase(
  store: Store,
  scope: string,
  key: string,
  listedEtag?: string,
  keep = true,
): Promise<IndexBase | { damaged: string; etag: string } | null> {
  const cacheKey = `${scope}|${key}`
  const cached = instanceBases.get(cacheKey)
  if (cached && listedEtag !== undefined && cached.etag === listedEtag) return cached
  const found = await store.getWithMetadata(key, { type: 'text', etag: cached?.etag })
  if (!found) {
    instanceBases.delete(cacheKey)
    return null
  }
  if (cached && found.etag === cached.etag) return cached
  const entries = parseBase(found.data)
  const etag = found.etag ?? ''
  if (typeof entries === 'string') return { damaged: entries, etag }
  const base = { etag, entries }
  if (keep) instanceBases.set(cacheKey, base)
  return base
}

/** The base under `key` as this instance holds it (however old), if it holds one. */
export function heldBase(scope: string, key: string): IndexBase | undefined {
  return instanceBases.get(`${scope}|${key}`)
}

/**
 * The counts a base's metadata holds, or null when it holds none of this format; `listedEtag`
 * (from a key listing) lets counts this instance holds be used without a request.
 */
export async function readCounts(
  store: Store,
  scope: string,
  key: string,
  listedEtag: string,
): Promise<IndexCounts | null> {
  const cacheKey = `${scope}|${key}`
  const cached = instanceCounts.get(cacheKey)
  if (cached?.etag === listedEtag) return cached.counts
  const found = await store.getMetadata(key)
  const counts = found?.metadata as Partial<IndexCounts & { format: number }> | undefined
  if (!counts || counts.format !== BASE_FORMAT) return null
  if (!Number.isFinite(counts.records) || !Number.isFinite(counts.unreadable)) return null
  if (typeof counts.tallies !== 'object' || counts.tallies === null) return null
  const { records, unreadable, tallies } = counts as IndexCounts
  if (found?.etag)
    instanceCounts.set(cacheKey, { etag: found.etag, counts: { records, unreadable, tallies } })
  return { records, unreadable, tallies }
}

/**
 * Writes a base only over the one it continues (`previous`: that base's ETag, null when there
 * was none); answers its new ETag, or null when another write came first (nothing written).
 */
export async function writeBase(
  store: Store,
  scope: string,
  key: string,
  entries: Map<string, IndexEntry>,
  previous: string | null,
  tally: Tally,
): Promise<string | null> {
  const blob: BaseBlob = { format: BASE_FORMAT, entries: Object.fromEntries(entries) }
  const counts = countEntries(entries.values(), tally)
  const metadata = { format: BASE_FORMAT, ...counts }
  const condition = previous === null ? { onlyIfNew: true } : { onlyIfMatch: previous }
  const { modified, etag } = await store.setJSON(key, blob, { ...condition, metadata })
  if (!modified || !etag) return null
  instanceBases.set(`${scope}|${key}`, { etag, entries })
  instanceCounts.set(`${scope}|${key}`, { etag, counts })
  return etag
}

/** Counts entries as a base's metadata does. */
export function countEntries(entries: Iterable<IndexEntry>, tally: Tally): IndexCounts {
  const counts: IndexCounts = { records: 0, unreadable: 0, tallies: {} }
  for (const { record } of entries) {
    if (record === null) {
      counts.unreadable += 1
      continue
    }
    counts.records += 1
    for (const name of tally(record)) counts.tallies[name] = (counts.tallies[name] ?? 0) + 1
  }
  return counts
}

/** Adds `counts` into `total` (the counts of several partitions). */
export function addCounts(total: IndexCounts, counts: IndexCounts): void {
  total.records += counts.records
  total.unreadable += counts.unreadable
  for (const [name, n] of Object.entries(counts.tallies)) {
    total.tallies[name] = (total.tallies[name] ?? 0) + n
  }
}

/** The entries a base blob holds, or what is wrong with it. */
function parseBase(text: string): Map<string, IndexEntry> | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text === '' ? 'empty' : 'not JSON'
  }
  const blob = value as Partial<BaseBlob> | null
  if (typeof blob !== 'object' || blob === null) return 'not an index'
  if (blob.format !== BASE_FORMAT) return `format ${String(blob.format)}, not ${BASE_FORMAT}`
  if (typeof blob.entries !== 'object' || blob.entries === null) return 'entries missing'
  const entries = Object.entries(blob.entries)
  const wellFormed = entries.every(
    ([, entry]) =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.record === 'object' &&
      (typeof entry.etag === 'string' || entry.etag === null),
  )
  return wellFormed ? new Map(entries) : 'entries of another shape'
}
