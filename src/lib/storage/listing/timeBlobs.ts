import { gunzipSync, gzipSync } from 'node:zlib'
import type { Store } from '@netlify/blobs'
import { timeViewKeys } from '../blobLayout.js'
import { chunkRows, ROW_OVERHEAD, type ChunkRows } from './searchChunks.js'

/**
 * The blobs of a time view (timeView.ts) as stored: the catalog (JSON, changed by
 * compare-and-swap) and the blobs it names (gzip'd JSON, each written once under a new key).
 * What this instance read is kept: the catalog by its ETag (a conditional read answers 304
 * while it is unchanged), the others by key (a key never holds anything else).
 */

/** A range of one family's records (a segment) or of one list's search rows (a chunk). */
export interface RunRef {
  /** Key of the blob (written once). */
  key: string
  /** First sort time it holds ('' for the oldest); it holds every time before the next run's `from`. */
  from: string
  /** Items in it. */
  count: number
}

/** A segment: records of one family (`Catalog.families[family]`), newest first. */
export interface SegmentRef extends RunRef {
  family: number
}

/** A chunk: search rows of one list (a family's first value), newest first. */
export interface ChunkRef extends RunRef {
  list: string
}

/** What the view holds of one index partition. */
export interface PartitionRef {
  /** Key of its directory blob: where each of its records is (`[family, time]` by record key). */
  dir: string
  /** Keys of its blobs that are not readable records. */
  unreadable: string[]
}

export interface Catalog {
  format: typeof CATALOG_FORMAT
  /** Every record of the collection is in the view (built, and followed since). */
  complete: boolean
  /** The families, by index: a list and the values that split it (`['active', 'pending']`). */
  families: string[][]
  /** Sorted by family, then `from`. */
  segments: SegmentRef[]
  /** Sorted by list, then `from`. */
  chunks: ChunkRef[]
  partitions: Record<string, PartitionRef>
  /** Changes while the view is not complete (each bump tells a build that it must read again). */
  bumps?: number
}

export const CATALOG_FORMAT = 1

/** A directory: record key → `[family, sort time]`. */
export type Directory = Record<string, [number, string]>

/** Catalogs read, by scope and collection, with their ETags (an optimisation only). */
const catalogs = new Map<string, { etag: string; catalog: Catalog }>()
/** Blobs read, by key (written once: never stale), oldest first; at most BLOB_BUDGET bytes. */
const blobs = new Map<string, { value: unknown; bytes: number }>()
let heldBytes = 0
// why: what a warm page reads again is a few segments; this keeps them and the search rows of
// 100,000 records (as bytes: searchChunks.ts) without letting a long-lived instance grow
const BLOB_BUDGET = 24 * 1024 * 1024
/** Largest blob whose unpacked size is taken from its gzip trailer (a damaged one claims any). */
const SIZED_UNPACK = 64 * 1024 * 1024

/** Forgets what this instance holds of time views (a cold start; tests and benchmarks). */
export function clearTimeViewBlobs(): void {
  catalogs.clear()
  blobs.clear()
  heldBytes = 0
}

/** What a catalog read found: the catalog and its ETag, none, or a blob that is no catalog. */
export type CatalogRead =
  | { state: 'found'; catalog: Catalog; etag: string }
  | { state: 'missing' }
  | { state: 'damaged'; etag: string; problem: string }

/** The collection's catalog; `fresh`: read again even when this instance holds one. */
export async function readCatalog(
  store: Store,
  scope: string,
  collection: string,
): Promise<CatalogRead> {
  const cacheKey = `${scope}|${collection}`
  const held = catalogs.get(cacheKey)
  const key = timeViewKeys.catalog(collection)
  const found = await store.getWithMetadata(key, { type: 'text', etag: held?.etag })
  if (!found) {
    catalogs.delete(cacheKey)
    return { state: 'missing' }
  }
  const etag = found.etag ?? ''
  if (held && etag === held.etag) return { state: 'found', catalog: held.catalog, etag }
  const catalog = parseCatalog(found.data ?? '')
  if (typeof catalog === 'string') return { state: 'damaged', etag, problem: catalog }
  catalogs.set(cacheKey, { etag, catalog })
  return { state: 'found', catalog, etag }
}

/** Writes the catalog over `previous` (its ETag; null: none); the new ETag, or null when another write came first. */
export async function writeCatalog(
  store: Store,
  scope: string,
  collection: string,
  catalog: Catalog,
  previous: string | null,
): Promise<string | null> {
  const condition = previous === null ? { onlyIfNew: true as const } : { onlyIfMatch: previous }
  const { modified, etag } = await store.setJSON(
    timeViewKeys.catalog(collection),
    catalog,
    condition,
  )
  if (!modified || !etag) return null
  catalogs.set(`${scope}|${collection}`, { etag, catalog })
  return etag
}

/** Writes `value` as a new blob of `kind` and answers its key. */
export async function writePacked(
  store: Store,
  collection: string,
  kind: 's' | 'q' | 'd',
  value: unknown,
  at: number,
): Promise<string> {
  const key = timeViewKeys.blob(collection, kind, at)
  const text = JSON.stringify(value)
  const packed = gzipSync(text)
  await store.set(
    key,
    packed.buffer.slice(packed.byteOffset, packed.byteOffset + packed.length) as ArrayBuffer,
    {
      onlyIfNew: true,
    },
  )
  if (kind !== 'q') hold(key, value, text.length)
  else {
    const rows = chunkRows(Buffer.from(text))
    if (rows) hold(key, rows, chunkBytes(rows))
  }
  return key
}

/** What a blob's bytes are read as: parsed JSON (segments, directories) or a chunk's rows. */
export type Unpack = 'json' | 'chunk'

/**
 * The value of a blob written by `writePacked` (a chunk: its `ChunkRows`), or null when it is
 * gone or damaged. `keep`: whether the instance keeps it (within BLOB_BUDGET) for the next
 * request. Default: true.
 */
export async function readPacked<T>(
  store: Store,
  key: string,
  keep = true,
  unpack: Unpack = 'json',
): Promise<T | null> {
  const held = blobs.get(key)
  if (held) {
    // why: most recently used last, so the budget drops the oldest first
    blobs.delete(key)
    blobs.set(key, held)
    return held.value as T
  }
  const data = await store.get(key, { type: 'arrayBuffer' })
  if (data === null) return null
  let value: unknown
  let bytes: number
  try {
    const unpacked = gunzipExact(Buffer.from(data))
    if (unpack === 'chunk') {
      const rows = chunkRows(unpacked)
      if (!rows) return null
      value = rows
      bytes = chunkBytes(rows)
    } else {
      const text = unpacked.toString('utf8')
      value = JSON.parse(text)
      bytes = text.length
    }
  } catch {
    return null
  }
  if (keep) hold(key, value, bytes)
  return value as T
}

/**
 * The JSON bytes of a blob written by `writePacked`, not parsed and not kept; null when it is
 * gone or not gzip'd. What this instance keeps of it is answered as JSON again.
 */
export async function readPackedBytes(store: Store, key: string): Promise<Buffer | null> {
  const held = blobs.get(key)
  if (held) return Buffer.from(JSON.stringify(held.value))
  const data = await store.get(key, { type: 'arrayBuffer' })
  if (data === null) return null
  try {
    return gunzipExact(Buffer.from(data))
  } catch {
    return null
  }
}

/**
 * Unpacks gzip'd bytes into one buffer of the size the gzip trailer names (zlib's default
 * grows 16 KB pieces and copies them together: several times the blob in passing).
 */
function gunzipExact(packed: Buffer): Buffer {
  const size = packed.length >= 18 ? packed.readUInt32LE(packed.length - 4) : 0
  if (size < 64 || size > SIZED_UNPACK) return gunzipSync(packed)
  return gunzipSync(packed, { chunkSize: size })
}

function chunkBytes(rows: ChunkRows): number {
  return rows.bytes.length + rows.starts.length * ROW_OVERHEAD
}

function hold(key: string, value: unknown, bytes: number): void {
  blobs.set(key, { value, bytes })
  heldBytes += bytes
  for (const [oldest, entry] of blobs) {
    if (heldBytes <= BLOB_BUDGET || oldest === key) break
    blobs.delete(oldest)
    heldBytes -= entry.bytes
  }
}

/** An empty catalog (nothing followed yet, not complete). */
export function emptyCatalog(): Catalog {
  return {
    format: CATALOG_FORMAT,
    complete: false,
    families: [],
    segments: [],
    chunks: [],
    partitions: {},
  }
}

function parseCatalog(text: string): Catalog | string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text === '' ? 'empty' : 'not JSON'
  }
  const catalog = value as Partial<Catalog> | null
  if (typeof catalog !== 'object' || catalog === null) return 'not a catalog'
  if (catalog.format !== CATALOG_FORMAT)
    return `format ${String(catalog.format)}, not ${CATALOG_FORMAT}`
  const wellFormed =
    typeof catalog.complete === 'boolean' &&
    Array.isArray(catalog.families) &&
    Array.isArray(catalog.segments) &&
    Array.isArray(catalog.chunks) &&
    typeof catalog.partitions === 'object' &&
    catalog.partitions !== null
  return wellFormed ? (catalog as Catalog) : 'fields of another shape'
}
