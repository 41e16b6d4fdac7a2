import type { RunRef } from './timeBlobs.js'

/**
 * Runs: a sorted sequence (newest first by time, then id) cut into ranges of time, each range
 * one blob of at most `max` items. A run holds every time from its `from` up to the next run's
 * `from` (the oldest run's `from` is ''), so where an item belongs follows from its time alone:
 * an item whose time is exactly a boundary belongs to the run that starts there.
 */

/** Where an item sorts and which record it is. */
export interface RunItem {
  key: string
  time: string
  id: string
}

/** A run after a change: kept as it was (its `from` may have moved down), or new items to write. */
export type Rewritten<R extends RunRef, I> =
  { kept: R; from: string } | { items: I[]; from: string }

/** Newest first by time, then by id (the lists' order). */
export function newestFirst(a: RunItem, b: RunItem): number {
  return a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0
}

/** Index of the run (of `runs`, sorted by `from`) that holds `time`; -1 when there are none. */
export function runIndexOf(runs: readonly RunRef[], time: string): number {
  let low = 0
  let high = runs.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >>> 1
    if (runs[middle].from <= time) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  return runs.length === 0 ? -1 : Math.max(found, 0)
}

/**
 * The runs after removing the items `removed` names (record key → the time it was at) and
 * adding `added` (an added item replaces one of the same key). Only runs that change are read
 * (`load`); one that grows past `max` is cut in two at a change of time nearest its middle, one
 * left empty is dropped (its range goes to the run before it, or the oldest run starts at '').
 */
export async function rewriteRuns<R extends RunRef, I>(
  runs: readonly R[],
  removed: ReadonlyMap<string, string>,
  added: readonly I[],
  itemOf: (item: I) => RunItem,
  load: (run: R) => Promise<I[]>,
  max: number,
): Promise<Rewritten<R, I>[]> {
  if (runs.length === 0) {
    const items = [...added].sort((a, b) => newestFirst(itemOf(a), itemOf(b)))
    return cut('', items, itemOf, max).map(({ from, items }) => ({ from, items }))
  }
  const changes = new Map<number, { removed: Set<string>; added: I[] }>()
  const changeOf = (index: number) => {
    let change = changes.get(index)
    if (!change) changes.set(index, (change = { removed: new Set(), added: [] }))
    return change
  }
  for (const [key, time] of removed) changeOf(runIndexOf(runs, time)).removed.add(key)
  for (const item of added) changeOf(runIndexOf(runs, itemOf(item).time)).added.push(item)
  const loaded = await Promise.all(
    [...changes.keys()].map(async (index) => [index, await load(runs[index])] as const),
  )
  const items = new Map(loaded)
  const result: Rewritten<R, I>[] = []
  runs.forEach((run, index) => {
    const change = changes.get(index)
    if (!change) {
      result.push({ kept: run, from: run.from })
      return
    }
    const replaced = new Set([...change.removed, ...change.added.map((item) => itemOf(item).key)])
    const next = [
      ...items.get(index)!.filter((item) => !replaced.has(itemOf(item).key)),
      ...change.added,
    ]
    next.sort((a, b) => newestFirst(itemOf(a), itemOf(b)))
    for (const part of cut(run.from, next, itemOf, max)) result.push(part)
  })
  const kept = result.filter((run) => ('kept' in run ? run.kept.count > 0 : run.items.length > 0))
  if (kept.length > 0) kept[0] = { ...kept[0], from: '' }
  return kept
}

/** `items` (newest first, all at or after `from`) as runs of at most `max`, oldest run first. */
function cut<I>(
  from: string,
  items: I[],
  itemOf: (item: I) => RunItem,
  max: number,
): { from: string; items: I[] }[] {
  if (items.length <= max) return [{ from, items }]
  const middle = items.length >>> 1
  let best = -1
  for (let j = 1; j < items.length; j++) {
    if (itemOf(items[j]).time === itemOf(items[j - 1]).time) continue
    if (best === -1 || Math.abs(j - middle) < Math.abs(best - middle)) best = j
  }
  // why: every item has one time: a run cannot be cut inside a time
  if (best === -1) return [{ from, items }]
  const newer = items.slice(0, best)
  const older = items.slice(best)
  return [
    ...cut(from, older, itemOf, max),
    ...cut(itemOf(newer[newer.length - 1]).time, newer, itemOf, max),
  ]
}
