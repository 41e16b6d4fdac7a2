import { z } from '../../../generated/zod.js'
import { mapWithConcurrency } from '../../concurrency.js'
import {
  hourOfKey,
  type KeywordLogEntry,
  type KeywordLogRepository,
} from '../../storage/keywordLogRepository.js'
import {
  addRows,
  closedHoursOf,
  countableEntry,
  countEntry,
  DAY_MS,
  dayName,
  dayRollup,
  HOUR_MS,
  hourName,
  hourRollups,
  isClosed,
  keysOfHours,
  type QueryCounts,
} from './keywordRollups.js'

const DAYS_MESSAGE = 'days must be an integer between 1 and 90'
const LIMIT_MESSAGE = 'limit must be an integer between 1 and 100'
// why: entries of the open hours (usually one): 50 at once; days 4 at once (a day being rolled
// for the first time reads its entries itself)
const READ_CONCURRENCY = 50
const DAY_CONCURRENCY = 4

/** Body of POST /api/admin/search-keywords. */
export const searchKeywordsRequestSchema = z.object({
  days: z
    .number({ error: DAYS_MESSAGE })
    .int({ error: DAYS_MESSAGE })
    .min(1, { error: DAYS_MESSAGE })
    .max(90, { error: DAYS_MESSAGE })
    .default(30),
  limit: z
    .number({ error: LIMIT_MESSAGE })
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(100, { error: LIMIT_MESSAGE })
    .default(20),
})

export interface QueryCount {
  query: string
  count: number
}

export interface SearchKeywordSummary {
  /** Start of the first UTC day counted. */
  from: string
  to: string
  totalSearches: number
  topQueries: QueryCount[]
  zeroResultQueries: QueryCount[]
}

/**
 * Counts the searches of the last `days` UTC days (today included), with queries normalized
 * (trimmed, NFKC, lower-cased) so that `Tokoname` and `ｔｏｋｏｎａｍｅ` count as one. Past days
 * are read from their day rollups, today's closed hours from hour rollups, the open hours from
 * their entries, plus entries that landed after their hour was rolled (keywordRollups.ts); the
 * answer is the same as counting every entry. Missing rollups of closed periods are built here.
 * `now`: the request's clock, ms since the epoch.
 */
export async function summarizeSearchKeywords(
  repository: KeywordLogRepository,
  { days, limit, now }: { days: number; limit: number; now: number },
): Promise<SearchKeywordSummary> {
  const nowMs = now
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS
  const dayStarts = Array.from({ length: days }, (_, i) => today - i * DAY_MS)
  const counts: QueryCounts = new Map()
  /** Hours counted through a rollup: their late entries are added below. */
  const rolledHours = new Set<string>()
  const openKeys: string[] = []
  // why: a day without entries and without a rollup has nothing to count (no rollup is built)
  const present = await repository.listDays()
  await mapWithConcurrency(dayStarts, DAY_CONCURRENCY, async (dayStart) => {
    const day = dayName(dayStart)
    if (!present.has(day)) return
    if (isClosed(dayStart + DAY_MS, nowMs)) {
      addRows(counts, (await dayRollup(repository, dayStart)).queries)
      for (let hour = 0; hour < 24; hour++) rolledHours.add(hourName(dayStart + hour * HOUR_MS))
      return
    }
    const closed = closedHoursOf(dayStart, nowMs)
    for (const rollup of (await hourRollups(repository, day, closed)).values()) {
      addRows(counts, rollup.queries)
      rolledHours.add(rollup.period)
    }
    // why: every hour not rolled, a clock-skewed future one too; listed one by one, in parallel
    const open = Array.from({ length: 24 }, (_, i) => hourName(dayStart + i * HOUR_MS)).filter(
      (hour) => !rolledHours.has(hour),
    )
    openKeys.push(...[...(await keysOfHours(repository, day, open, false)).values()].flat())
  })
  const entries = await mapWithConcurrency(openKeys, READ_CONCURRENCY, (key) =>
    countableEntry(repository, key),
  )
  for (const entry of entries) countEntry(counts, entry)
  // why: late entries count only in hours counted through a rollup: none, nothing to list
  const late =
    rolledHours.size > 0 ? await repository.lateEntries() : new Map<string, KeywordLogEntry>()
  for (const [key, entry] of late) {
    if (rolledHours.has(hourOfKey(key) ?? '')) countEntry(counts, entry)
  }
  const all = new Map<string, number>()
  const zeroResult = new Map<string, number>()
  let totalSearches = 0
  for (const [query, [count, zero]] of counts) {
    totalSearches += count
    all.set(query, count)
    if (zero > 0) zeroResult.set(query, zero)
  }
  return {
    from: new Date(today - (days - 1) * DAY_MS).toISOString(),
    to: new Date(now).toISOString(),
    totalSearches,
    topQueries: topCounts(all, limit),
    zeroResultQueries: topCounts(zeroResult, limit),
  }
}

function topCounts(counts: Map<string, number>, limit: number): QueryCount[] {
  return [...counts]
    .map(([query, count]) => ({ query, count }))
    .sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    .slice(0, limit)
}
