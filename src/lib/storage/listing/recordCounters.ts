import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { counterKeys } from '../blobLayout.js'

/**
 * Counts of one record collection by group — the values of a few fields of a record (status,
 * product, archived…) — kept at write time: every write through RecordCollection adds what it
 * changed (the record before and after it) to one of a few shard blobs by compare-and-swap, so
 * statistics and totals read those few blobs instead of any record.
 *
 * **Exact, or not used.** The counts are trusted only while shard 0 says `ready`: set when
 * every record was found counted (reconciliation, counterReconcile.ts), cleared when a write
 * could not add its change. Writes add their changes whether or not the counts are ready, so
 * counts that start with a collection (an empty one) are ready from its first record.
 *
 * **Contention.** A write adds to a shard chosen at random, so simultaneous writers spread over
 * `shards` blobs; one that loses a compare-and-swap waits a random moment and tries again.
 */

/** What a collection counts its records by. */
export interface CounterLayout {
  /** The fields a record is grouped by: name → its value for a record (`status` → `pending`). */
  dimensions: Readonly<Record<string, (record: unknown) => string>>
  /** Amounts summed per group beside the count: name → a record's amount. Default: none. */
  sums?: Readonly<Record<string, (record: unknown) => number>>
  /** The dimension whose value is the record's index partition (counts are checked a partition at a time). */
  partition: string
  /**
   * Shard blobs writes spread over (a read adds them all up). Default: 4; 1 for a collection
   * written rarely and read whole (the notice history).
   */
  shards?: number
}

/** One group: the dimension values its records share, how many they are, and their sums. */
export interface CountedGroup {
  values: Readonly<Record<string, string>>
  count: number
  sums: Readonly<Record<string, number>>
}

/** Counts as read: exact only when `ready`. */
export interface CountsRead {
  ready: boolean
  /** Counts by group key (`groupKey`), each `[count, ...sums]` in the layout's order. */
  groups: Map<string, number[]>
  /** Digests of the index deltas of writes counted in the last minute (`deltaDigest`). */
  recent: Set<string>
}

/** A change one write made: the record before and after it (null: none), and its index delta. */
export interface CountedChange {
  before: unknown
  after: unknown
  /** Key of the index delta the write announced (kept as counted for a minute). */
  delta?: string
}

export interface RecordCountersOptions {
  collection: string
  layout: CounterLayout
  /** Shard blobs writes spread over. Default: the layout's, else 4. */
  shards?: number
  /** Clock (ms). Default: `Date.now`. */
  now?: () => number
}

interface ShardBlob {
  format: typeof SHARD_FORMAT
  /** Shard 0 only: every record of the collection is counted. */
  ready?: boolean
  groups: Record<string, number[]>
  /** `[delta digest, when counted]` of recent writes. */
  recent: [string, number][]
}

const SHARD_FORMAT = 1
// why: a writer whose record write landed adds its change within moments; a delta this old
// whose write is not counted belongs to a writer that died
export const COUNTED_RECENTLY_MS = 60_000
const MAX_RECENT = 1_000
// why: 50 simultaneous writers over 4 shards settle within a few rounds; past this many a
// change is given up and the counts marked not ready (reconciliation repairs them)
const ATTEMPTS = 60

/** The digest a write's delta is remembered by in `recent`. */
export function deltaDigest(deltaKey: string): string {
  return createHash('sha256').update(deltaKey).digest('hex').slice(0, 12)
}

export class RecordCounters {
  readonly #store: Store
  readonly #collection: string
  readonly #layout: CounterLayout
  readonly #dimensions: string[]
  readonly #sums: string[]
  readonly #layoutId: string
  readonly #shards: number
  readonly #now: () => number

  constructor(store: Store, options: RecordCountersOptions) {
    this.#store = store
    this.#collection = options.collection
    this.#layout = options.layout
    this.#dimensions = Object.keys(options.layout.dimensions)
    this.#sums = Object.keys(options.layout.sums ?? {})
    if (!this.#dimensions.includes(options.layout.partition)) {
      throw new Error(
        `The counters of ${options.collection} need the dimension ${options.layout.partition}`,
      )
    }
    this.#layoutId = createHash('sha256')
      .update(JSON.stringify([SHARD_FORMAT, this.#dimensions, this.#sums]))
      .digest('hex')
      .slice(0, 10)
    this.#shards = options.shards ?? options.layout.shards ?? 4
    this.#now = options.now ?? Date.now
  }

  /** The group a record counts in, and its `[1, ...sums]`. */
  groupOf(record: unknown): { key: string; amounts: number[] } {
    const values = this.#dimensions.map((name) => this.#layout.dimensions[name](record))
    const sums = this.#sums.map((name) => this.#layout.sums![name](record))
    return { key: JSON.stringify(values), amounts: [1, ...sums] }
  }

  /** The dimension values and counts of a group key. */
  describe(key: string, amounts: readonly number[]): CountedGroup {
    const values = JSON.parse(key) as string[]
    return {
      values: Object.fromEntries(this.#dimensions.map((name, i) => [name, values[i]])),
      count: amounts[0] ?? 0,
      sums: Object.fromEntries(this.#sums.map((name, i) => [name, amounts[i + 1] ?? 0])),
    }
  }

  /** The partition a group key counts records of. */
  partitionOf(key: string): string {
    return (JSON.parse(key) as string[])[this.#dimensions.indexOf(this.#layout.partition)]
  }

  /** Counts `records` as the shards would (what a partition's records add up to). */
  count(records: Iterable<unknown>): Map<string, number[]> {
    const groups = new Map<string, number[]>()
    for (const record of records) addGroup(groups, this.groupOf(record), 1)
    return groups
  }

  /**
   * Adds the changes of writes that happened. False when a shard stayed contended past every
   * attempt: the counts are then marked not ready (reconciliation repairs them).
   */
  async add(changes: readonly CountedChange[]): Promise<boolean> {
    const delta = new Map<string, number[]>()
    const digests: string[] = []
    for (const change of changes) {
      if (change.before !== null && change.before !== undefined) {
        addGroup(delta, this.groupOf(change.before), -1)
      }
      if (change.after !== null && change.after !== undefined) {
        addGroup(delta, this.groupOf(change.after), 1)
      }
      if (change.delta) digests.push(deltaDigest(change.delta))
    }
    // why: a write that changes no count (a note edited) leaves the shards alone, so writers
    // that change no count never contend; reconciliation then waits for its delta to settle
    if (isZero(delta)) return true
    const shard = Math.floor(Math.random() * this.#shards)
    const added = await this.#change(shard, (blob) => {
      addGroups(blob.groups, delta)
      const now = this.#now()
      blob.recent = [...blob.recent, ...digests.map((d): [string, number] => [d, now])]
        .filter(([, at]) => at >= now - COUNTED_RECENTLY_MS)
        .slice(-MAX_RECENT)
      return true
    })
    if (!added) await this.setReady(false)
    return added
  }

  /** Adds corrections (from reconciliation) to the counts; false when contention won. */
  correct(corrections: ReadonlyMap<string, number[]>): Promise<boolean> {
    if (isZero(corrections)) return Promise.resolve(true)
    return this.#change(0, (blob) => {
      addGroups(blob.groups, corrections)
      return true
    })
  }

  /** Marks the counts exact (every record counted) or not. */
  setReady(ready: boolean): Promise<boolean> {
    return this.#change(0, (blob) => {
      if ((blob.ready ?? false) === ready) return false
      blob.ready = ready
      return true
    })
  }

  /**
   * Every shard added up when shard 0 says the counts are exact; null when not. The shards are
   * read together (shard 0 once), so exact counts cost one read of each shard.
   */
  async readIfReady(): Promise<CountsRead | null> {
    const read = await this.read()
    return read.ready ? read : null
  }

  /** Whether shard 0 says the counts are exact (one read; `read` also checks every shard). */
  async isReady(): Promise<boolean> {
    const found = await this.#read(0)
    return found.blob.ready === true && !found.damaged
  }

  /** Every shard added up; not ready when shard 0 says so or a shard is not a counts blob. */
  async read(): Promise<CountsRead> {
    const blobs = await Promise.all(
      Array.from({ length: this.#shards }, (_, shard) => this.#read(shard)),
    )
    const groups = new Map<string, number[]>()
    const recent = new Set<string>()
    let ready = blobs[0]?.blob.ready === true
    for (const found of blobs) {
      if (found.damaged) ready = false
      addGroups(groups, new Map(Object.entries(found.blob.groups)))
      for (const [digest] of found.blob.recent) recent.add(digest)
    }
    return { ready, groups, recent }
  }

  async #read(shard: number): Promise<{ blob: ShardBlob; etag: string | null; damaged: boolean }> {
    const key = counterKeys.shard(this.#collection, this.#layoutId, shard)
    const found = await this.#store.getWithMetadata(key, { type: 'text' })
    if (!found) return { blob: emptyShard(), etag: null, damaged: false }
    const blob = parseShard(found.data)
    return { blob: blob ?? emptyShard(), etag: found.etag ?? null, damaged: blob === null }
  }

  /** Applies `change` to a shard by compare-and-swap (`change` false: nothing to write). */
  async #change(shard: number, change: (blob: ShardBlob) => boolean): Promise<boolean> {
    const key = counterKeys.shard(this.#collection, this.#layoutId, shard)
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const { blob, etag, damaged } = await this.#read(shard)
      // why: a damaged shard lost its counts: it starts again from nothing, not ready
      if (damaged && shard === 0) blob.ready = false
      if (!change(blob) && !damaged) return true
      const condition = etag === null ? { onlyIfNew: true as const } : { onlyIfMatch: etag }
      const { modified } = await this.#store.setJSON(key, blob, condition)
      if (modified) return true
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(250, 25 * attempt)),
      )
    }
    return false
  }
}

function emptyShard(): ShardBlob {
  return { format: SHARD_FORMAT, groups: {}, recent: [] }
}

function parseShard(text: string): ShardBlob | null {
  try {
    const value = JSON.parse(text) as Partial<ShardBlob> | null
    if (typeof value !== 'object' || value === null || value.format !== SHARD_FORMAT) return null
    if (typeof value.groups !== 'object' || value.groups === null) return null
    const groupsWellFormed = Object.values(value.groups).every(
      (amounts) => Array.isArray(amounts) && amounts.every((n) => Number.isFinite(n)),
    )
    if (!groupsWellFormed || !Array.isArray(value.recent)) return null
    return value as ShardBlob
  } catch {
    return null
  }
}

function addGroup(
  groups: Map<string, number[]>,
  group: { key: string; amounts: number[] },
  sign: number,
): void {
  const current = groups.get(group.key) ?? group.amounts.map(() => 0)
  groups.set(
    group.key,
    current.map((n, i) => n + sign * (group.amounts[i] ?? 0)),
  )
}

/** Adds `delta` into `target` (a blob's groups or a map), dropping groups that reach zero. */
function addGroups(
  target: Record<string, number[]> | Map<string, number[]>,
  delta: ReadonlyMap<string, number[]>,
): void {
  const get = (key: string) => (target instanceof Map ? target.get(key) : target[key])
  const set = (key: string, value: number[] | undefined) => {
    if (target instanceof Map) {
      if (value) target.set(key, value)
      else target.delete(key)
    } else if (value) target[key] = value
    else delete target[key]
  }
  for (const [key, amounts] of delta) {
    const current = get(key) ?? []
    const length = Math.max(current.length, amounts.length)
    const next = Array.from({ length }, (_, i) => (current[i] ?? 0) + (amounts[i] ?? 0))
    set(key, next.every((n) => n === 0) ? undefined : next)
  }
}

function isZero(groups: ReadonlyMap<string, number[]>): boolean {
  return [...groups.values()].every((amounts) => amounts.every((n) => n === 0))
}
