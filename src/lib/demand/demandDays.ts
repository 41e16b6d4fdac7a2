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

/**
 * Counts one kind on one JST day from its sources: markers by listing; searches (both kinds at
 * once, kept in `searchDays`) from the 24 UTC hours of the day.
 */
export async function countDay(
  sources: DemandSources,
  kind: DemandKind,
  day: string,
  searchDays: Map<string, Promise<SearchDay>> = new Map(),
): Promise<number> {
  if (kind !== 'searches' && kind !== 'zeroSearches') {
    return sources.demand.countMarked(kind as MarkedKind, day)
  }
  let counted = searchDays.get(day)
  if (!counted) searchDays.set(day, (counted = countSearchDay(sources.keywordLog, day)))
  return (await counted)[kind]
}

/**
 * A JST day's searches from the keyword log: a closed UTC day's rollup names the hours that had
 * searches (only their hour rollups are read); any other hour is read from its hour rollup, or
 * counted from the keys of its entries (which carry the search).
 */
async function countSearchDay(keywordLog: KeywordLogRepository, day: string): Promise<SearchDay> {
  const start = jstDayStart(day)
  const hours = Array.from({ length: 24 }, (_, i) => hourName(start + i * HOUR_MS))
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
 * JST day of the last `days` that has none yet, newest first, within `budgetMs`.
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
  const searchDays = new Map<string, Promise<SearchDay>>()
  for (const kind of DEMAND_KINDS) {
    const stored = new Set(await sources.demand.listRollups(kind, ''))
    const missing = closed.filter((day) => !stored.has(day))
    await mapWithConcurrency(missing, 4, async (day) => {
      if (performance.now() - started > budgetMs) return
      const count = await countDay(sources, kind, day, searchDays)
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
  const searchDays = new Map<string, Promise<SearchDay>>()
  const counts = await mapWithConcurrency(cells, 16, async ({ kind, day }) => {
    if (!isClosedDay(day, now)) return countDay(sources, kind, day, searchDays)
    const rollup = await sources.demand.readRollup(kind, day)
    if (rollup) return rollup.count
    // why: not rolled yet (the scheduled run has not come by): rolled here, once
    const count = await countDay(sources, kind, day, searchDays)
    return (await sources.demand.createRollup(kind, { day, count })).count
  })
  return days.map((_, i) =>
    Object.fromEntries(DEMAND_KINDS.map((kind, k) => [kind, counts[k * days.length + i]])),
  ) as Record<DemandKind, number>[]
}
