import type { AdminRecord } from './adminResources.js'

/** The timestamp a list is ordered by: active lists by creation, archive lists by archiving. */
export type SortField = 'createdAt' | 'archivedAt'

/** Newest first by `field` (ISO timestamps); ties by id, newest first, so the order is total. */
export function compareNewestFirst(field: SortField) {
  return (a: AdminRecord, b: AdminRecord) =>
    compareText(b[field] ?? '', a[field] ?? '') || compareText(b.id, a.id)
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

interface Entry {
  source: readonly object[]
  sorted: readonly object[]
}

// why: a few lists per instance (each resource × product filter × field); more is a miss, not a leak
const MAX_ENTRIES = 16

/**
 * The sorted order of what a listing read, kept in the instance: the records of a warm listing
 * are the same objects in the same order from request to request, so a page after the first
 * costs a comparison of references instead of sorting 100,000 records. Keyed by what was read:
 * any record added, removed or changed (a new object) sorts again.
 */
export class SortedOrders {
  readonly #entries = new Map<string, Entry>()

  /** `records` sorted newest first by `field`; the answer is shared: never change it. */
  sorted<T extends AdminRecord>(
    key: string,
    records: readonly T[],
    field: SortField,
  ): readonly T[] {
    const name = `${field}|${key}`
    const hit = this.#entries.get(name)
    if (hit && sameItems(hit.source, records)) return hit.sorted as readonly T[]
    const sorted = [...records].sort(compareNewestFirst(field))
    this.#entries.delete(name)
    this.#entries.set(name, { source: records, sorted })
    if (this.#entries.size > MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value as string)
    }
    return sorted
  }
}

function sameItems(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false
  return true
}
