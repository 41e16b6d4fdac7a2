import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../concurrency.js'
import { reconcileCounters } from './counterReconcile.js'
import type { IndexEntry } from './indexBase.js'
import type { Changed } from './indexEntries.js'
import { PartitionIndex, SCAN_CONCURRENCY, type RecordIndexOptions } from './partitionIndex.js'
import type { CountsRead, RecordCounters } from './recordCounters.js'
import type { Catalog } from './timeBlobs.js'
import type { TimeView } from './timeView.js'

export type { CollectionCounts, Listing, RecordIndexOptions } from './partitionIndex.js'

/**
 * The index of a record collection (docs/architecture.md "Record indexes"): the per-partition
 * index (partitionIndex.ts) and what follows it — the time view of the lists (timeView.ts),
 * handed every fold's records before the fold deletes its deltas — and the collection's
 * counters (recordCounters.ts), checked against the bases. "Complete" means all three are:
 * the background rebuild brings that about, and a small collection completes within a request.
 */
export interface FollowerOptions {
  /** The time view of the collection's lists. Default: none. */
  timeView?: TimeView | null
  /** The counters of the collection. Default: none. */
  counters?: RecordCounters | null
}

export class RecordIndex extends PartitionIndex {
  readonly #timeView: TimeView | null
  readonly #counters: RecordCounters | null
  readonly #now: () => number

  constructor(store: Store, options: RecordIndexOptions & FollowerOptions) {
    super(store, options)
    this.#timeView = options.timeView ?? null
    this.#counters = options.counters ?? null
    this.#now = options.now ?? Date.now
  }

  /**
   * The time view's catalog when the view is complete; a small collection's view is built here
   * (a bounded few hundred records), a larger one's by the background rebuild, started here.
   */
  async viewCatalog(): Promise<Catalog | null> {
    if (!this.#timeView) return null
    const catalog = await this.#timeView.completeCatalog()
    if (catalog !== null) return catalog
    if (!(await this.adoptSmall()) || !(await this.#completeView())) {
      this.kickRebuild()
      return null
    }
    return this.#timeView.completeCatalog()
  }

  /**
   * The counters when they are exact (`ready`); a small collection's are reconciled here, a
   * larger one's by the background rebuild, started here. `completing: false`: null when they
   * are not exact, the background rebuild started.
   */
  async readyCounts(options: { completing?: boolean } = {}): Promise<CountsRead | null> {
    if (!this.#counters) return null
    if (options.completing === false) {
      const exact = await this.#counters.readIfReady()
      if (!exact) this.kickRebuild()
      return exact
    }
    const read = await this.#counters.read()
    if (read.ready) return read
    if (!(await this.adoptSmall()) || !(await this.#completeCounters())) {
      this.kickRebuild()
      return null
    }
    const again = await this.#counters.read()
    return again.ready ? again : null
  }

  /**
   * Compares `partition` with its key listing (a fold with `verify`), then checks its counters
   * against its base and corrects them (counterReconcile.ts); false when writes in flight made
   * that impossible now (the next verifier run tries again).
   */
  async reconcile(partition: string): Promise<boolean> {
    if (!this.#counters) return this.fold(partition, { verify: true })
    return reconcileCounters(this, this.#counters, [partition], this.#now)
  }

  /**
   * Whether every partition has been indexed (the marker blob), the time view is built and the
   * counters are exact: what the background rebuild brings about.
   */
  override async isComplete(): Promise<boolean> {
    const [indexed, viewed, counted] = await Promise.all([
      this.isIndexed(),
      this.#timeView ? this.#timeView.isComplete() : true,
      this.#counters ? this.#counters.isReady() : true,
    ])
    return indexed && viewed && counted
  }

  /**
   * Records that every partition has a base (after a rebuild built the missing ones), then
   * builds the time view from the bases and reconciles the counters where they are not done.
   * False when the view or the counters could not be completed now (writes in flight): the
   * next run tries again.
   */
  override async markComplete(): Promise<boolean> {
    await this.markIndexed()
    const viewed = await this.#completeView()
    const counted = await this.#completeCounters()
    return viewed && counted
  }

  /** Builds the time view from the bases unless it is complete; false when writes kept changing it. */
  async #completeView(): Promise<boolean> {
    if (!this.#timeView || (await this.#timeView.isComplete())) return true
    return this.#timeView.build(() => this.#allEntries())
  }

  /** Reconciles every partition's counters and marks them exact, unless they are; false when writes in flight prevented it. */
  async #completeCounters(): Promise<boolean> {
    if (!this.#counters || (await this.#counters.isReady())) return true
    const partitions = await this.partitions()
    const reconciled = await reconcileCounters(this, this.#counters, partitions, this.#now, {
      orphans: true,
    })
    if (reconciled) await this.#counters.setReady(true)
    return reconciled
  }

  protected override follow(
    partition: string,
    entries: ReadonlyMap<string, IndexEntry>,
    changed: Changed,
  ): Promise<boolean> {
    if (!this.#timeView) return Promise.resolve(true)
    return this.#timeView.follow(partition, entries, changed)
  }

  /** Every partition's base entries (read again, none kept): what a build of the time view reads. */
  async #allEntries(): Promise<Map<string, ReadonlyMap<string, IndexEntry>>> {
    const partitions = await this.partitions()
    const all = new Map<string, ReadonlyMap<string, IndexEntry>>()
    await mapWithConcurrency(partitions, SCAN_CONCURRENCY, async (partition) => {
      const entries = await this.baseEntries(partition)
      if (entries) all.set(partition, entries)
    })
    return all
  }
}
