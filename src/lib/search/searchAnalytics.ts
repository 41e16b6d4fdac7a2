import { z } from '../../generated/zod.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { KeywordLogRepository } from '../storage/keywordLogRepository.js'
import { normalizeQuery } from './textNormalization.js'

const DAYS_MESSAGE = 'days must be an integer between 1 and 90'
const LIMIT_MESSAGE = 'limit must be an integer between 1 and 100'
// why: one blob read per search; 50 at once keeps a 90-day summary fast without flooding the store
const READ_CONCURRENCY = 50
const LIST_CONCURRENCY = 10
const DAY_MS = 24 * 60 * 60 * 1000

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
 * (trimmed, NFKC, lower-cased) so that `Tokoname` and `ｔｏｋｏｎａｍｅ` count as one.
 */
export async function summarizeSearchKeywords(
  repository: KeywordLogRepository,
  { days, limit, now = new Date() }: { days: number; limit: number; now?: Date },
): Promise<SearchKeywordSummary> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const dayNames = Array.from({ length: days }, (_, i) =>
    new Date(today - i * DAY_MS).toISOString().slice(0, 10),
  )
  const keysPerDay = await mapWithConcurrency(dayNames, LIST_CONCURRENCY, (day) =>
    repository.listKeysOfDay(day),
  )
  const entries = await mapWithConcurrency(keysPerDay.flat(), READ_CONCURRENCY, (key) =>
    repository.read(key),
  )
  const all = new Map<string, number>()
  const zeroResult = new Map<string, number>()
  let totalSearches = 0
  for (const entry of entries) {
    const query = entry && normalizeQuery(entry.keyword)
    if (!query) continue
    totalSearches++
    all.set(query, (all.get(query) ?? 0) + 1)
    if (entry.resultCount === 0) zeroResult.set(query, (zeroResult.get(query) ?? 0) + 1)
  }
  return {
    from: new Date(today - (days - 1) * DAY_MS).toISOString(),
    to: now.toISOString(),
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
