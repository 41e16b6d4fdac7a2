import type { Store } from '@netlify/blobs'

/**
 * Pictures of demand (docs/dashboard.md "Overview"): what happened per JST day, kept without a
 * shared counter (a rush of reservations of one product would fight over it). Each event writes
 * one tiny marker of its own, `onlyIfNew` (a retry writes the same key), whose key carries how
 * many events it stands for; a day is counted by listing its markers (a list page is 1,000
 * keys). Once a day is closed the scheduled rollup writes its total once (`onlyIfNew`), so a
 * 90-day picture reads 90 small blobs per kind instead of listing every marker.
 *
 * Keys (store `shop-records`, docs/architecture.md "Blob layout"):
 * - `demand/{kind}/{YYYY-MM-DD}/{event id}~{count}`: one event (or a batch of `count`);
 * - `demand-rollups/v1/{kind}/{YYYY-MM-DD}`: `{day, count}` of a closed day;
 * - `demand-clicks/{noticeId}/{recipient digest}`: the first click of one recipient on a notice.
 */

/** What is counted per day. Searches come from the keyword log's rollups (searchDemand.ts). */
export type DemandKind =
  'reservations' | 'signups' | 'sent' | 'failed' | 'searches' | 'zeroSearches'

/** The kinds written as markers by the services. */
export type MarkedKind = Exclude<DemandKind, 'searches' | 'zeroSearches'>

export interface DemandRollup {
  day: string
  count: number
}

const MARKER_PREFIX = 'demand'
const ROLLUP_PREFIX = 'demand-rollups/v1'
const CLICK_PREFIX = 'demand-clicks'
// why: ids are [A-Za-z0-9._-]; encoding keeps any other text from making a path or a `~`
const segment = (value: string) => encodeURIComponent(value).replace(/~/g, '%7E')

export interface DemandLog {
  /** Records `count` events of `kind` on `day` under `eventId` (idempotent: a repeat writes nothing). */
  mark(kind: MarkedKind, day: string, eventId: string, count?: number): Promise<void>
  /** The kinds that have markers at all (one listing of their folders). */
  markedKinds(): Promise<Set<string>>
  /** The days with markers of `kind` (one listing of their folders). */
  markedDays(kind: MarkedKind): Promise<Set<string>>
  /** The events of `kind` on `day`, counted from the listing of its markers. */
  countMarked(kind: MarkedKind, day: string): Promise<number>
  /** Days of `kind` with a stored rollup whose name starts with `prefix`. */
  listRollups(kind: DemandKind, prefix: string): Promise<string[]>
  /** The rollup of a closed day, or null. */
  readRollup(kind: DemandKind, day: string): Promise<DemandRollup | null>
  /** Stores a closed day's total unless one exists; answers the stored one. */
  createRollup(kind: DemandKind, rollup: DemandRollup): Promise<DemandRollup>
  /** Counts a recipient's click on a notice once: true when this click was the first. */
  markClick(noticeId: string, recipient: string): Promise<boolean>
  /** The notices with any click (one listing of their folders). */
  clickedNotices(): Promise<Set<string>>
  /** Recipients who clicked a notice's link. */
  countClicks(noticeId: string): Promise<number>
  /** Whether `recipient` clicked the notice's link. */
  hasClicked(noticeId: string, recipient: string): Promise<boolean>
}

/** The count a marker key carries (1 for a key without one). */
function countOfMarker(key: string): number {
  const count = Number(/~(\d{1,7})$/.exec(key)?.[1] ?? 1)
  return Number.isSafeInteger(count) ? count : 1
}

/** The notice ids of the folders under `prefix` (every page of one listing). */
export async function noticeFolders(store: Store, prefix: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for await (const page of store.list({ prefix, directories: true, paginate: true })) {
    for (const folder of page.directories) {
      ids.add(decodeURIComponent(folder.slice(prefix.length).replace(/\/$/, '')))
    }
  }
  return ids
}

export function demandLog(store: Store): DemandLog {
  const rollupKey = (kind: DemandKind, day: string) => `${ROLLUP_PREFIX}/${kind}/${day}`
  const countKeys = async (prefix: string, countOf: (key: string) => number) => {
    const { blobs } = await store.list({ prefix })
    return blobs.reduce((sum, { key }) => sum + countOf(key), 0)
  }
  const clickKey = (noticeId: string, recipient: string) =>
    `${CLICK_PREFIX}/${segment(noticeId)}/${segment(recipient)}`
  const log: DemandLog = {
    async mark(kind, day, eventId, count = 1) {
      if (count <= 0) return
      const key = `${MARKER_PREFIX}/${kind}/${day}/${segment(eventId)}~${count}`
      await store.set(key, '', { onlyIfNew: true })
    },
    async markedKinds() {
      const prefix = `${MARKER_PREFIX}/`
      const { directories } = await store.list({ prefix, directories: true })
      return new Set(
        directories.map((directory) => directory.slice(prefix.length).replace(/\/$/, '')),
      )
    },
    async markedDays(kind) {
      const prefix = `${MARKER_PREFIX}/${kind}/`
      const { directories } = await store.list({ prefix, directories: true })
      return new Set(
        directories.map((directory) => directory.slice(prefix.length).replace(/\/$/, '')),
      )
    },
    countMarked: (kind, day) => countKeys(`${MARKER_PREFIX}/${kind}/${day}/`, countOfMarker),
    async listRollups(kind, prefix) {
      const start = rollupKey(kind, '')
      const { blobs } = await store.list({ prefix: `${start}${prefix}` })
      return blobs.map(({ key }) => key.slice(start.length))
    },
    async readRollup(kind, day) {
      const value: unknown = await store
        .get(rollupKey(kind, day), { type: 'json' })
        .catch(() => null)
      if (typeof value !== 'object' || value === null) return null
      const { count } = value as Record<string, unknown>
      return Number.isSafeInteger(count) ? { day, count: count as number } : null
    },
    async createRollup(kind, rollup) {
      const { modified } = await store.setJSON(rollupKey(kind, rollup.day), rollup, {
        onlyIfNew: true,
      })
      return modified ? rollup : ((await log.readRollup(kind, rollup.day)) ?? rollup)
    },
    async markClick(noticeId, recipient) {
      return (await store.set(clickKey(noticeId, recipient), '', { onlyIfNew: true })).modified
    },
    clickedNotices: () => noticeFolders(store, `${CLICK_PREFIX}/`),
    countClicks: (noticeId) => countKeys(`${CLICK_PREFIX}/${segment(noticeId)}/`, () => 1),
    async hasClicked(noticeId, recipient) {
      return (await store.getMetadata(clickKey(noticeId, recipient))) !== null
    },
  }
  return log
}
