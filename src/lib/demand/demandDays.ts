import { mapWithConcurrency } from '../concurrency.js'
import { HOUR_MS, hourName, keysOfHours } from '../search/analytics/keywordRollups.js'
import type { DemandKind, DemandLog, MarkedKind } from '../storage/demandLog.js'
import type { KeywordLogRepository } from '../storage/keywordLogRepository.js'
import { searchOfKey } from '../storage/keywordLogRepository.js'

/**
 * Days of the pictures of demand are JST days (the shop's days): `YYYY-MM-DD` of UTC+9. A day is
 * closed ten minutes after its end (a write in flight lands first: a marker's day is the clock
 * of its own write); closed days are read from their rollups, open days counted live.
 */
const JST_OFFSET_MS = 9 * HOUR_MS
export const JST_DAY_MS = 24 * HOUR_MS
const SETTLE_MS = 10 * 60 * 1000

export const DEMAND_KINDS: readonly DemandKind[] = [
  'reservations',
  'signups',
  'sent',
  'failed',
  'searches',
  'zeroSearches',
]

/** The JST day of an instant. */
export function jstDay(at: number): string {
  return new Date(at + JST_OFFSET_MS).toISOString().slice(0, 10)
}

/** When the JST day `day` starts (ms since the epoch). */
export function jstDayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) - JST_OFFSET_MS
}

/** The last `days` JST days ending with today's, oldest first. */
export function lastJstDays(now: number, days: number): string[] {
  const today = jstDayStart(jstDay(now))
  return Array.from({ length: days }, (_, i) => jstDay(today - (days - 1 - i) * JST_DAY_MS))
}

export function isClosedDay(day: string, now: number): boolean {
  return now >= jstDayStart(day) + JST_DAY_MS + SETTLE_MS
}

export interface DemandSources {
  demand: DemandLog
  keywordLog: KeywordLogRepository
}

/** Searches and zero-result searches of one JST day. */
interface SearchDay {
  searches: number
  zeroSearches: number
}

const MARKED_KINDS: readonly MarkedKind[] = ['reservations', 'signups', 'sent', 'failed']

/** Counts kinds per JST day for one run, knowing which days have anything at all. */
interface DayCounter {
  /** Whether `day` has events of `kind` (false: its count is 0, nothing to read or roll). */
  hasEvents(kind: DemandKind, day: string): boolean
  /** The count: markers by listing; searches (both kinds in one pass) from the keyword log. */
  count(kind: DemandKind, day: string): Promise<number>
}

/**
 * One listing of the marker kinds, one per kind that has markers and one of the keyword log's
 * days tell which days have events, so a fresh shop's 90-day picture costs a handful of requests.
 */
async function dayCounter(sources: DemandSources): Promise<DayCounter> {
  const [searchDays, kinds] = await Promise.all([
    sources.keywordLog.listDays(),
    sources.demand.markedKinds(),
  ])
  const marked = await Promise.all(
    MARKED_KINDS.map((kind) =>
      kinds.has(kind) ? sources.demand.markedDays(kind) : new Set<string>(),
    ),
  )
  const markedDays = new Map(MARKED_KINDS.map((kind, i) => [kind, marked[i]]))
  const utcDaysOf = (day: string) => {
    const start = jstDayStart(day)
    return [
      new Date(start).toISOString().slice(0, 10),
      new Date(start + JST_DAY_MS - 1).toISOString().slice(0, 10),
    ]
  }
  const counted = new Map<string, Promise<SearchDay>>()
  const isSearch = (kind: DemandKind): kind is 'searches' | 'zeroSearches' =>
    kind === 'searches' || kind === 'zeroSearches'
  const counter: DayCounter = {
    hasEvents(kind, day) {
      if (isSearch(kind)) return utcDaysOf(day).some((utc) => searchDays.has(utc))
      return markedDays.get(kind)?.has(day) ?? false
    },
    async count(kind, day) {
      if (!counter.hasEvents(kind, day)) return 0
      if (!isSearch(kind)) return sources.demand.countMarked(kind, day)
      let search = counted.get(day)
      if (!search) counted.set(day, (search = countSearchDay(sources.keywordLog, day, searchDays)))
      return (await search)[kind]
    },
  }
  return counter
}

/**
 * A JST day's searches from the keyword log: a closed UTC day's rollup names the hours that had
 * searches (only their hour rollups are read); any other hour is read from its hour rollup, or
 * counted from the keys of its entries (which carry the search).
 */
async function countSearchDay(
  keywordLog: KeywordLogRepository,
  day: string,
  present: ReadonlySet<string>,
): Promise<SearchDay> {
  const start = jstDayStart(day)
  const hours = Array.from({ length: 24 }, (_, i) => hourName(start + i * HOUR_MS)).filter((hour) =>
    present.has(hour.slice(0, 10)),
  )
  const utcDays = [...new Set(hours.map((hour) => hour.slice(0, 10)))]
  const dayRollups = await Promise.all(utcDays.map((utc) => keywordLog.readRollup('day', utc)))
  const known = new Map(utcDays.map((utc, i) => [utc, dayRollups[i]?.hours ?? null]))
  const wanted = hours.filter((hour) => {
    const withSearches = known.get(hour.slice(0, 10))
    return !withSearches || withSearches.includes(hour)
  })
  const counts = await mapWithConcurrency(wanted, 8, async (hour): Promise<SearchDay> => {
    const rollup = await keywordLog.readRollup('hour', hour)
    if (rollup) {
      return rollup.queries.reduce(
        (sum, [, all, zero]) => ({
          searches: sum.searches + all,
          zeroSearches: sum.zeroSearches + zero,
        }),
        { searches: 0, zeroSearches: 0 },
      )
    }
    const keys = [...(await keysOfHours(keywordLog, hour.slice(0, 10), [hour])).values()].flat()
    return {
      searches: keys.length,
      zeroSearches: keys.filter((key) => searchOfKey(key)?.resultCount === 0).length,
    }
  })
  return counts.reduce(
    (sum, one) => ({
      searches: sum.searches + one.searches,
      zeroSearches: sum.zeroSearches + one.zeroSearches,
    }),
    { searches: 0, zeroSearches: 0 },
  )
}

/**
 * What the hourly scheduled function adds (search-keywords-rollup.ts): the rollup of every closed
 * JST day of the last `days` that has events and no rollup yet, newest first, within `budgetMs`
 * (a day without events needs none: its count is 0 from the listing of days).
 */
export async function rollUpDemandDays(
  sources: DemandSources,
  { now, days = 90, budgetMs = 8_000 }: { now: number; days?: number; budgetMs?: number },
): Promise<string[]> {
  const started = performance.now()
  const closed = lastJstDays(now, days)
    .filter((day) => isClosedDay(day, now))
    .reverse()
  const rolled: string[] = []
  const counter = await dayCounter(sources)
  for (const kind of DEMAND_KINDS) {
    const stored = new Set(await sources.demand.listRollups(kind, ''))
    const missing = closed.filter((day) => !stored.has(day) && counter.hasEvents(kind, day))
    await mapWithConcurrency(missing, 4, async (day) => {
      if (performance.now() - started > budgetMs) return
      const count = await counter.count(kind, day)
      await sources.demand.createRollup(kind, { day, count })
      rolled.push(`${kind}/${day}`)
    })
  }
  return rolled
}

/** Per-day counts of every kind for `days` (JST): closed days from rollups, open ones live. */
export async function dailySeries(
  sources: DemandSources,
  days: readonly string[],
  now: number,
): Promise<Record<DemandKind, number>[]> {
  const cells = DEMAND_KINDS.flatMap((kind) => days.map((day) => ({ kind, day })))
  const counter = await dayCounter(sources)
  const counts = await mapWithConcurrency(cells, 16, async ({ kind, day }) => {
    if (!counter.hasEvents(kind, day)) return 0
    if (!isClosedDay(day, now)) return counter.count(kind, day)
    const rollup = await sources.demand.readRollup(kind, day)
    if (rollup) return rollup.count
    // why: not rolled yet (the scheduled run has not come by): rolled here, once
    const count = await counter.count(kind, day)
    return (await sources.demand.createRollup(kind, { day, count })).count
  })
  return days.map((_, i) =>
    Object.fromEntries(DEMAND_KINDS.map((kind, k) => [kind, counts[k * days.length + i]])),
  ) as Record<DemandKind, number>[]
}
