import { mapWithConcurrency } from '../../concurrency.js'
import {
  hourOfKey,
  type KeywordLogEntry,
  type KeywordLogRepository,
  type KeywordRollup,
  type QueryCountRows,
  searchOfKey,
} from '../../storage/keywordLogRepository.js'
import { normalizeQuery } from '../textNormalization.js'

/**
 * Rollups of the keyword log (docs/search.md): each search stays its own blob (§2.6, D11); once
 * an hour is over (plus ROLLUP_SETTLE_MS) its counts go into one hour blob, and once all hours of
 * a UTC day are rolled, their sum goes into one day blob. A summary then reads one blob per past
 * day, one per closed hour of today, and the entries of the hours still open.
 */

/** How long after its end a period is rolled: writes still landing then are late (counted apart). */
const ROLLUP_SETTLE_MS = 10 * 60 * 1000
export const HOUR_MS = 60 * 60 * 1000
export const DAY_MS = 24 * HOUR_MS
// why: at most ~5 × 40 blob reads in flight (only entries whose key does not carry their search
// are read); enough to roll a busy day quickly, gentle on the store
const ENTRY_READ_CONCURRENCY = 40
const ROLLUP_CONCURRENCY = 5
// why: an hour of a busy shop is one or two list pages; listing a whole busy day is ~34 pages one
// after the other (a page's cursor comes with the previous page), so hours are listed apart, in
// parallel, unless most of a day is wanted (a backfill, or an empty day: one request)
const LIST_CONCURRENCY = 8
const WHOLE_DAY_LISTING = 12

/**
 * Entry keys of `hours` (of one UTC day), grouped by hour: one listing per hour, or one of the
 * whole day when most hours are wanted and `wholeDay` allows it.
 */
export async function keysOfHours(
  repository: KeywordLogRepository,
  day: string,
  hours: readonly string[],
  wholeDay = true,
): Promise<Map<string, string[]>> {
  if (wholeDay && hours.length >= WHOLE_DAY_LISTING) {
    const wanted = new Set(hours)
    const all = groupByHour(await repository.listKeys(`${day}/`))
    return new Map([...all].filter(([hour]) => wanted.has(hour)))
  }
  const lists = await mapWithConcurrency(hours, LIST_CONCURRENCY, (hour) =>
    repository.listKeys(`${day}/${hour}`),
  )
  return groupByHour(lists.flat())
}

/** Counts per normalized query: `[all, zero-result]`. */
export type QueryCounts = Map<string, [number, number]>

/**
 * What counting needs of an entry: the search its key carries (`resultCount` then only says
 * zero or not; no blob request), else the entry read from its blob.
 */
export function countableEntry(
  repository: KeywordLogRepository,
  key: string,
): Promise<KeywordLogEntry | null> {
  const fromKey = searchOfKey(key)
  return fromKey ? Promise.resolve(fromKey) : repository.read(key)
}

/** Adds one search; an unreadable entry or one whose normalized query is empty counts nowhere. */
export function countEntry(counts: QueryCounts, entry: KeywordLogEntry | null): void {
  const query = entry && normalizeQuery(entry.keyword)
  if (!query) return
  const slot = counts.get(query) ?? [0, 0]
  slot[0] += 1
  if (entry.resultCount === 0) slot[1] += 1
  counts.set(query, slot)
}

/** Adds the rows of a rollup. */
export function addRows(counts: QueryCounts, rows: QueryCountRows): void {
  for (const [query, all, zero] of rows) {
    const slot = counts.get(query) ?? [0, 0]
    slot[0] += all
    slot[1] += zero
    counts.set(query, slot)
  }
}

function rowsOf(counts: QueryCounts): QueryCountRows {
  return [...counts].map(([query, [all, zero]]) => [query, all, zero])
}

/** `YYYY-MM-DD` of a UTC day start / `YYYY-MM-DDTHH` of an hour start. */
export const dayName = (start: number) => new Date(start).toISOString().slice(0, 10)
export const hourName = (start: number) => new Date(start).toISOString().slice(0, 13)

/** Whether the period ending at `end` is over long enough to be rolled. */
export function isClosed(end: number, now: number): boolean {
  return now >= end + ROLLUP_SETTLE_MS
}

/**
 * The rollups of those of `hours` (closed hours of one UTC day) that have searches, building the
 * missing ones from the day's entries; an hour without entries gets no blob (it is counted from
 * the listing until its day is rolled). A roller lists, writes each rollup (`onlyIfNew`: a second
 * roller keeps the first one's), then lists again: an entry it did not count becomes a late
 * marker. An entry whose write lands later finds the rollup itself (KeywordLogRepository.append).
 */
export async function hourRollups(
  repository: KeywordLogRepository,
  day: string,
  hours: readonly string[],
): Promise<Map<string, KeywordRollup>> {
  const stored = new Set(await repository.listRollups('hour', day))
  const wanted = new Set(hours)
  const rollups = new Map<string, KeywordRollup>()
  const keysByHour = await keysOfHours(
    repository,
    day,
    hours.filter((hour) => !stored.has(hour)),
  )
  const missing = [...keysByHour.keys()].filter((hour) => wanted.has(hour) && !stored.has(hour))
  const read = new Map<string, KeywordLogEntry | null>()
  await mapWithConcurrency(missing, ROLLUP_CONCURRENCY, async (hour) => {
    const keys = keysByHour.get(hour)!.sort()
    const entries = await mapWithConcurrency(keys, ENTRY_READ_CONCURRENCY, (key) =>
      countableEntry(repository, key),
    )
    const counts: QueryCounts = new Map()
    keys.forEach((key, index) => read.set(key, entries[index]))
    entries.forEach((entry) => countEntry(counts, entry))
    const rollup = { period: hour, keys, queries: rowsOf(counts) }
    rollups.set(hour, await repository.createRollup('hour', rollup))
  })
  if (missing.length > 0) {
    const built = new Set(missing)
    const covered = new Set([...rollups.values()].flatMap((rollup) => rollup.keys ?? []))
    const again = [...(await keysOfHours(repository, day, missing)).values()].flat()
    await markUncovered(repository, again, (key) => built.has(hourOfKey(key) ?? ''), covered, read)
  }
  const present = hours.filter((hour) => stored.has(hour))
  await mapWithConcurrency(present, ROLLUP_CONCURRENCY, async (hour) => {
    const rollup = await repository.readRollup('hour', hour)
    // why: listed a moment ago but unreadable now (deleted or damaged by hand): rebuilt next time
    if (rollup) rollups.set(hour, rollup)
  })
  return rollups
}

/**
 * The rollup of a closed UTC day: the sum of its hour rollups (built when missing). After writing
 * it the day is listed again: an entry no summed hour counted becomes a late marker.
 */
export async function dayRollup(
  repository: KeywordLogRepository,
  dayStart: number,
): Promise<KeywordRollup> {
  const day = dayName(dayStart)
  const existing = await repository.readRollup('day', day)
  if (existing) return existing
  const hours = Array.from({ length: 24 }, (_, i) => hourName(dayStart + i * HOUR_MS))
  const byHour = await hourRollups(repository, day, hours)
  const counts: QueryCounts = new Map()
  for (const rollup of byHour.values()) addRows(counts, rollup.queries)
  const rollup = { period: day, hours: [...byHour.keys()].sort(), queries: rowsOf(counts) }
  const stored = await repository.createRollup('day', rollup)
  const summed = new Set(stored.hours ?? [])
  const covered = new Set(
    [...byHour.values()].filter((r) => summed.has(r.period)).flatMap((r) => r.keys ?? []),
  )
  // why: an entry of a summed hour that its hour rollup left out is marked late by its writer or
  // by hourRollups; only hours the day did not sum (no entries when listed) can hide one now
  const unsummed = hours.filter((hour) => !summed.has(hour))
  const again = [...(await keysOfHours(repository, day, unsummed)).values()].flat()
  await markUncovered(repository, again, () => true, covered)
  return stored
}

/** Writes a late marker for every listed key of a rolled hour that no rollup counted. */
async function markUncovered(
  repository: KeywordLogRepository,
  keys: readonly string[],
  isRolled: (key: string) => boolean,
  covered: ReadonlySet<string>,
  read: ReadonlyMap<string, KeywordLogEntry | null> = new Map(),
): Promise<void> {
  for (const key of keys) {
    if (covered.has(key) || !hourOfKey(key) || !isRolled(key)) continue
    const entry = read.has(key) ? read.get(key)! : await countableEntry(repository, key)
    if (entry) await repository.markLate(key, entry)
  }
}

/** Options of rollUpClosedPeriods. */
export interface RollUpOptions {
  /** The time (ms) that decides which periods are closed. */
  now: number
  /** How many UTC days back (today included) to look. Default: 90, the longest summary. */
  days?: number
  /** Starts no further day after this long (ms), newest days first. Default: 20 s. */
  budgetMs?: number
}

/**
 * What the scheduled function does every hour: roll the closed hours of today and every closed
 * day among the last `days` that has no rollup yet, newest first and within `budgetMs`, so that
 * summaries find them ready (after a deploy onto an existing log it backfills over a few runs).
 */
export async function rollUpClosedPeriods(
  repository: KeywordLogRepository,
  { now, days = 90, budgetMs = 20_000 }: RollUpOptions,
): Promise<{ days: string[]; hours: string[] }> {
  // why: the budget is elapsed time (a stopwatch), never the clock that `now` stands for
  const started = performance.now()
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const rolledDays = new Set(await repository.listRollups('day', ''))
  // why: a day without entries has nothing to roll (a summary skips it the same way)
  const present = await repository.listDays()
  const rolled = { days: [] as string[], hours: [] as string[] }
  for (let i = 0; i < days && performance.now() - started < budgetMs; i++) {
    const dayStart = today - i * DAY_MS
    if (!present.has(dayName(dayStart))) continue
    if (isClosed(dayStart + DAY_MS, now)) {
      if (rolledDays.has(dayName(dayStart))) continue
      rolled.days.push((await dayRollup(repository, dayStart)).period)
      continue
    }
    const hours = closedHoursOf(dayStart, now)
    if (hours.length === 0) continue
    const rollups = await hourRollups(repository, dayName(dayStart), hours)
    rolled.hours.push(...rollups.keys())
  }
  return rolled
}

/** The hours of the day starting at `dayStart` that are closed at `now`. */
export function closedHoursOf(dayStart: number, now: number): string[] {
  const hours: string[] = []
  for (let start = dayStart; start < dayStart + DAY_MS; start += HOUR_MS) {
    if (isClosed(start + HOUR_MS, now)) hours.push(hourName(start))
  }
  return hours
}

function groupByHour(keys: readonly string[]): Map<string, string[]> {
  const byHour = new Map<string, string[]>()
  for (const key of keys) {
    const hour = hourOfKey(key)
    if (!hour) continue
    const list = byHour.get(hour) ?? []
    list.push(key)
    byHour.set(hour, list)
  }
  return byHour
}
