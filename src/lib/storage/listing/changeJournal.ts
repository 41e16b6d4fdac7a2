import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'

/**
 * An append-only log of which record keys changed, one tiny blob per change, in hourly folders.
 * Readers list only the recent folders to learn what to read again, instead of listing every
 * record key. Writers never touch a shared blob, so concurrent writes cannot lose each other.
 */
export interface JournalEntry {
  /** The journal blob's own key. */
  key: string
  /** Key of the record that changed. */
  recordKey: string
  /** Writer's clock when the change was announced (ms). */
  at: number
}

const HOUR_MS = 3_600_000
// why: `{15 digits}-{8}~` + this stays under the 255-byte file name of a local key segment
const MAX_ENCODED_NAME = 200

function bucketOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13)
}

export class ChangeJournal {
  readonly #store: Store
  readonly #root: string

  readonly #onDamaged: (key: string, problem: string) => void

  /** `name`: the collection, e.g. `reservations`; `onDamaged`: told about entries it ignores. */
  constructor(
    store: Store,
    name: string,
    onDamaged: (key: string, problem: string) => void = () => undefined,
  ) {
    this.#store = store
    this.#root = `journal/${name}/`
    this.#onDamaged = onDamaged
  }

  /**
   * Announces a change of `recordKey`; call it before writing the record. The entry's name holds
   * the key (base64url); a key too long for that (a key segment is a file name of at most 255
   * bytes locally) is named by its hash and written into the entry, which readers then read.
   */
  async announce(recordKey: string, at: number): Promise<void> {
    const random = Math.random().toString(36).slice(2, 10)
    const encoded = Buffer.from(recordKey).toString('base64url')
    const start = `${this.#root}${bucketOf(at)}/${String(at).padStart(15, '0')}-${random}`
    if (encoded.length <= MAX_ENCODED_NAME) {
      await this.#store.set(`${start}~${encoded}`, '')
    } else {
      const hash = createHash('sha256').update(recordKey).digest('hex')
      await this.#store.set(`${start}#${hash}`, recordKey)
    }
  }

  /** Every entry in the hourly folders from `from`'s hour to `to`'s hour. */
  async entriesBetween(from: number, to: number): Promise<JournalEntry[]> {
    const buckets: string[] = []
    for (let hour = from - (from % HOUR_MS); hour <= to; hour += HOUR_MS)
      buckets.push(bucketOf(hour))
    const pages = await Promise.all(
      buckets.map((bucket) => this.#store.list({ prefix: `${this.#root}${bucket}/` })),
    )
    const keys = pages.flatMap((page) => page.blobs.map(({ key }) => key))
    const entries = (await Promise.all(keys.map((key) => this.#entry(key)))).filter(isEntry)
    if (entries.length < keys.length) {
      const found = new Set(entries.map((entry) => entry.key))
      const damaged = keys.filter((key) => !found.has(key))
      this.#onDamaged(
        damaged[0],
        `not a journal entry name (${damaged.length} such entries, ignored)`,
      )
    }
    return entries
  }

  /** The entry a journal blob is, reading it only when its name holds a hash. */
  async #entry(key: string): Promise<JournalEntry | null> {
    const name = key.slice(key.lastIndexOf('/') + 1)
    const hashed = /^(\d{15})-[a-z0-9]*#([0-9a-f]{64})$/.exec(name)
    if (!hashed) return parseEntry(key)
    const recordKey = await this.#store.get(key, { type: 'text' })
    if (recordKey === null || !isRecordKey(recordKey)) return null
    if (createHash('sha256').update(recordKey).digest('hex') !== hashed[2]) return null
    return { key, at: Number(hashed[1]), recordKey }
  }

  /** Deletes up to `limit` entries from folders that ended before `before`. */
  async prune(before: number, limit: number): Promise<number> {
    const { directories } = await this.#store.list({ prefix: this.#root, directories: true })
    const cutoff = bucketOf(before)
    const old = directories.filter((dir) => dir.slice(this.#root.length) < cutoff)
    let deleted = 0
    for (const dir of old) {
      const { blobs } = await this.#store.list({ prefix: `${dir}/` })
      for (const { key } of blobs.slice(0, limit - deleted)) {
        await this.#store.delete(key)
        deleted += 1
      }
      if (deleted >= limit) break
    }
    return deleted
  }
}

function parseEntry(key: string): JournalEntry | null {
  const name = key.slice(key.lastIndexOf('/') + 1)
  const match = /^(\d{15})-[a-z0-9]*~([A-Za-z0-9_-]+)$/.exec(name)
  if (!match) return null
  const recordKey = Buffer.from(match[2], 'base64url').toString()
  if (!isRecordKey(recordKey)) return null
  return { key, at: Number(match[1]), recordKey }
}

/** why: a name that decodes to no usable blob key (bad UTF-8, control characters) names no record */
function isRecordKey(recordKey: string): boolean {
  return recordKey !== '' && !recordKey.startsWith('/') && !/[\p{C}\uFFFD]/u.test(recordKey)
}

function isEntry(entry: JournalEntry | null): entry is JournalEntry {
  return entry !== null
}
