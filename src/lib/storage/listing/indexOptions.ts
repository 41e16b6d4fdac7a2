import type { Partitioning } from './partitioning.js'
import type { IndexCounts, Tally } from './indexBase.js'

/** What a record index (partitionIndex.ts, recordIndex.ts) is built with, and what it answers. */
export interface RecordIndexOptions {
  /** Name in index keys, e.g. `reservations`. */
  collection: string
  /** Prefix of every record key, e.g. `reservations/`. */
  prefix: string
  partitioning: Partitioning
  /** Which blobs the store reaches (`storeScope`); the instance cache is kept per scope. */
  scope: string
  /** The record a blob holds, or null when it is not one (damaged, hand-edited). */
  parse: (text: string) => unknown
  /** Told once per read of a blob that is not a record. */
  onUnreadable: (key: string) => void
  /** What a record counts as in the base's metadata (statistics). Default: nothing. */
  tally?: Tally
  /** Blob reads in flight at once. Default: 50. */
  readConcurrency?: number
  /** Hands over work that may finish after the response (`context.waitUntil`). Default: left running. */
  defer?: (work: Promise<unknown>) => void
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** Told about failed background work (folds). Default: ignored. */
  onBackgroundError?: (work: string, error: unknown) => void
  /** Told about a damaged index blob (ignored, then rebuilt): its key and what is wrong. Default: ignored. */
  onDamagedIndex?: (key: string, problem: string) => void
  /** Starts the background rebuild of missing indexes (indexMaintenance.ts). Default: nothing. */
  requestRebuild?: () => void
}

/** Records of a listing, and the keys of blobs that could not be read as records. */
export interface Listing<T> {
  records: T[]
  unreadableKeys: string[]
  /**
   * True while an index this listing is read from is missing or outdated and being rebuilt: the
   * records are then what exists so far, and answers carry `rebuilding: true`.
   */
  rebuilding?: boolean
}

/** Counts over a whole collection, from the bases' metadata (exact: pending deltas are read). */
export interface CollectionCounts extends IndexCounts {
  /** Counts per partition (a product's slug). */
  partitions: Map<string, IndexCounts>
  rebuilding?: boolean
}
