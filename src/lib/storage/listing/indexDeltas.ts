import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { indexKeys } from '../blobLayout.js'
import type { Partitioning } from './partitioning.js'

/**
 * Index deltas: one tiny blob per record write (or per batch of writes of one partition),
 * written (`onlyIfNew`) before the records, under `index-deltas/{collection}/{partition}/`. A
 * reader re-reads the records they name; a fold writes them into the partition's base and
 * deletes them. Writers never touch a shared blob, so simultaneous writes of one product never
 * contend.
 */
export interface IndexDelta {
  /** The delta blob's own key. */
  key: string
  partition: string
  /** Keys of the records that changed (one, or a batch's). */
  recordKeys: string[]
  /** Writer's clock when the change was announced (ms). */
  at: number
}

// why: `{15 digits}-{8}~` + this stays under the 255-byte file name of a local key segment
const MAX_ENCODED_NAME = 200

/**
 * Announces a change of `recordKeys` (in `partition`); call it before writing the records. A
 * single key is held by the delta's name (base64url); several, or a key too long for a name,
 * are written into the delta (one a line), which is named by their hash and read by readers.
 * Answers the delta's key.
 */
export async function writeDelta(
  store: Store,
  collection: string,
  partition: string,
  recordKeys: readonly string[],
  at: number,
): Promise<string> {
  const random = Math.random().toString(36).slice(2, 10)
  const encoded = Buffer.from(recordKeys[0]).toString('base64url')
  const start = `${indexKeys.partitionDeltas(collection, partition)}${String(at).padStart(15, '0')}-${random}`
  if (recordKeys.length === 1 && encoded.length <= MAX_ENCODED_NAME) {
    const key = `${start}~${encoded}`
    await store.set(key, '', { onlyIfNew: true })
    return key
  }
  const content = recordKeys.join('\n')
  // why: `~~` (base64url has no `~`); a `#` would end the request's path, cutting the key there
  const key = `${start}~~${sha256(content)}`
  await store.set(key, content, { onlyIfNew: true })
  return key
}

/**
 * Every delta under `prefix` (a collection's or one partition's folder), and the keys of blobs
 * there that are no delta (ignored; the caller reports them).
 */
export async function listDeltas(
  store: Store,
  collection: string,
  prefix: string,
): Promise<{ deltas: IndexDelta[]; damaged: string[] }> {
  const keys: string[] = []
  for await (const page of store.list({ prefix, paginate: true })) {
    for (const { key } of page.blobs) keys.push(key)
  }
  const root = indexKeys.deltas(collection)
  const parsed = await Promise.all(keys.map((key) => deltaOf(store, root, key)))
  const deltas = parsed.filter((delta): delta is IndexDelta => delta !== null)
  const found = new Set(deltas.map((delta) => delta.key))
  return { deltas, damaged: keys.filter((key) => !found.has(key)) }
}

/** The delta a blob is, reading it only when its name holds a hash. */
async function deltaOf(store: Store, root: string, key: string): Promise<IndexDelta | null> {
  const [partition, name, ...rest] = key.slice(root.length).split('/')
  if (!partition || !name || rest.length > 0) return null
  const plain = /^(\d{15})-[a-z0-9]*~([A-Za-z0-9_-]+)$/.exec(name)
  if (plain) {
    const recordKey = Buffer.from(plain[2], 'base64url').toString()
    if (!isRecordKey(recordKey)) return null
    return { key, partition, at: Number(plain[1]), recordKeys: [recordKey] }
  }
  const hashed = /^(\d{15})-[a-z0-9]*~~([0-9a-f]{64})$/.exec(name)
  if (!hashed) return null
  const content = await store.get(key, { type: 'text' })
  if (content === null || sha256(content) !== hashed[2]) return null
  const recordKeys = content.split('\n')
  if (!recordKeys.every(isRecordKey)) return null
  return { key, partition, at: Number(hashed[1]), recordKeys }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** why: a name that decodes to no usable blob key (bad UTF-8, control characters) names no record */
function isRecordKey(recordKey: string): boolean {
  return recordKey !== '' && !recordKey.startsWith('/') && !/[\p{C}\uFFFD]/u.test(recordKey)
}

/** The record keys `deltas` name, each once. */
export function recordKeysOf(deltas: readonly IndexDelta[]): string[] {
  return [...new Set(deltas.flatMap((delta) => delta.recordKeys))]
}

/**
 * The deltas under `prefix` by partition; blobs there that are no delta of this collection (a
 * garbled name, a key of another partition) are ignored and reported once.
 */
export async function deltasByPartition(
  store: Store,
  collection: string,
  prefix: string,
  partitioning: Partitioning,
  onStray: (key: string, problem: string) => void,
): Promise<Map<string, IndexDelta[]>> {
  const { deltas, damaged } = await listDeltas(store, collection, prefix)
  const byPartition = new Map<string, IndexDelta[]>()
  const strays: string[] = [...damaged]
  for (const delta of deltas) {
    if (delta.recordKeys.some((key) => partitioning.of(key) !== delta.partition)) {
      strays.push(delta.key)
      continue
    }
    byPartition.set(delta.partition, [...(byPartition.get(delta.partition) ?? []), delta])
  }
  if (strays.length > 0) {
    onStray(strays[0], `not a delta of this collection (${strays.length} such blobs, ignored)`)
  }
  return byPartition
}
