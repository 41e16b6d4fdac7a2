import type { IndexEntry } from './indexBase.js'
import type { IndexDelta } from './indexDeltas.js'
import { COUNTED_RECENTLY_MS, deltaDigest, type RecordCounters } from './recordCounters.js'

/**
 * Reconciliation: the counters (recordCounters.ts) of a partition made equal to what its base
 * holds, for records that no write counted (old data, writes around the service, a writer that
 * died between its record and its count).
 *
 * Sound only when no write of the partition is between its record and its count, which it
 * checks: it lists the partition's deltas, reads the counters, folds and reads the base, and
 * lists the deltas again. A delta that appeared meanwhile, or one younger than a minute whose
 * write the counters have not counted, is a write in flight: the partition is left for later.
 */

/** What reconciliation needs of an index. */
export interface ReconciledIndex {
  /** The pending deltas of one partition, or (null) of the whole collection, by partition. */
  pendingDeltas(partition: string | null): Promise<Map<string, IndexDelta[]>>
  fold(partition: string, options: { verify?: boolean }): Promise<boolean>
  baseEntries(partition: string): Promise<ReadonlyMap<string, IndexEntry> | null>
}

/**
 * Reconciles the counters of `partitions` (with `orphans`, also of partitions the counters
 * know and the index does not): one listing of the deltas before and one after, one read of
 * the counters, one correction. True when every partition was reconciled.
 */
export async function reconcileCounters(
  index: ReconciledIndex,
  counters: RecordCounters,
  partitions: readonly string[],
  now: () => number,
  options: { orphans?: boolean } = {},
): Promise<boolean> {
  const scope = partitions.length === 1 && !options.orphans ? partitions[0] : null
  const before = await index.pendingDeltas(scope)
  const counted = await counters.read()
  const targets = new Set(partitions)
  if (options.orphans) {
    for (const key of counted.groups.keys()) targets.add(counters.partitionOf(key))
  }
  const truths = new Map<string, Map<string, number[]>>()
  for (const partition of targets) {
    if (!(await index.fold(partition, { verify: true }))) continue
    const entries = (await index.baseEntries(partition)) ?? new Map<string, IndexEntry>()
    const records = [...entries.values()].flatMap((entry) =>
      entry.record === null ? [] : [entry.record],
    )
    truths.set(partition, counters.count(records))
  }
  const after = await index.pendingDeltas(scope)
  const corrections = new Map<string, number[]>()
  let all = truths.size === targets.size
  for (const [partition, truth] of truths) {
    const seen = new Set((before.get(partition) ?? []).map((delta) => delta.key))
    const appeared = (after.get(partition) ?? []).some((delta) => !seen.has(delta.key))
    const inFlight = (before.get(partition) ?? []).some(
      (delta) =>
        delta.at >= now() - COUNTED_RECENTLY_MS && !counted.recent.has(deltaDigest(delta.key)),
    )
    if (appeared || inFlight) {
      all = false
      continue
    }
    for (const [key, amounts] of truth) corrections.set(key, amounts)
    for (const [key, amounts] of counted.groups) {
      if (counters.partitionOf(key) !== partition) continue
      const correct = corrections.get(key) ?? amounts.map(() => 0)
      corrections.set(
        key,
        correct.map((n, i) => n - (amounts[i] ?? 0)),
      )
    }
  }
  return (await counters.correct(corrections)) && all
}
