import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { indexKeys } from '../blobLayout.js'

/**
 * Index deltas: one tiny blob per record write, written (`onlyIfNew`) before the record, under
 * `index-deltas/{collection}/{partition}/`. A reader re-reads the records they name; a fold
 * writes them into the partition's base and deletes them. Writers never touch a shared blob,
 * so simultaneous writes of one product never contend.
 */
export interface IndexDelta {
  /** The delta blob's own key. */
  key: string
  partition: string
  /** Key of the record that changed. */
  recordKey: string
  /** Writer's clock when the change was announced (ms). */
  at: number
}

// why: `{15 digits}-{8}~` + this stays under the 255-byte file name of a local key segment
const MAX_ENCODED_NAME = 200

/**
 * Announces a change of `recordKey` (in `partition`); call it before writing the record. The
 * delta's name holds the key (base64url); a key too long for that is named by its hash and
 * written into the delta, which readers then read.
 */
export async function writeDelta(
  store: Store,
  collection: string,
  partition: string,
  recordKey: string,
  at: number,
): Promise<void> {
  const random = Math.random().toString(36).slice(2, 10)
  const encoded = Buffer.from(recordKey).toString('base64url')
  const start = `${indexKeys.partitionDeltas(collection, partition)}${String(at).padStart(15, '0')}-${random}`
  if (encoded.length <= MAX_ENCODED_NAME) {
    await store.set(`${start}~${encoded}`, '', { onlyIfNew: true })
  } else {
    await store.set(`${start}#${sha256(recordKey)}`, recordKey, { onlyIfNew: true })
  }
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
    return isRecordKey(recordKey) ? { key, partition, at: Number(plain[1]), recordKey } : null
  }
  const hashed = /^(\d{15})-[a-z0-9]*#([0-9a-f]{64})$/.exec(name)
  if (!hashed) return null
  const recordKey = await store.get(key, { type: 'text' })
  if (recordKey === null || !isRecordKey(recordKey) || sha256(recordKey) !== hashed[2]) return null
  return { key, partition, at: Number(hashed[1]), recordKey }
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
  return [...new Set(deltas.map((delta) => delta.recordKey))]
}
