import type { Logger } from '../../log.js'
import {
  openKeywordLogRepository,
  type KeywordLogEntry,
} from '../../storage/keywordLogRepository.js'
import { getSiteSearch } from './defaultSiteSearch.js'
import { searchSpellings } from './searchSpellings.js'
import { parseExcerptLength } from './excerpt.js'
import type { SearchResult } from './siteSearch.js'
import { normalizeQuery } from '../textNormalization.js'
import type { RequestContext } from '../../requestContext.js'

/** The body of a GET /api/search answer (§4.11). */
export interface SearchResponseBody {
  results: SearchResult[]
  query: string
  totalResults: number
}

/**
 * Answers GET /api/search from its query parameters and logs the keyword in the background
 * (§2.6); an empty query is no search and is not logged. Variants and synonyms: searchSpellings.
 */
export async function answerSearch(
  params: URLSearchParams,
  context: RequestContext,
  log: Logger,
  now = Date.now(),
): Promise<SearchResponseBody> {
  const query = normalizeQuery(params.get('q') ?? '')
  if (!query) return { results: [], query: '', totalResults: 0 }
  const { results, totalResults } = getSiteSearch().search(
    query,
    parseExcerptLength(params.get('excerpt_length')),
    searchSpellings(context, log, now),
  )
  const entry = { keyword: query, timestamp: new Date().toISOString(), resultCount: totalResults }
  context.waitUntil?.(recordKeyword(entry, context, log))
  return { results, query, totalResults }
}

/** Writes one keyword log entry; a failure is logged and never reaches the search answer (§6). */
export async function recordKeyword(
  entry: KeywordLogEntry,
  context: RequestContext,
  log: Logger,
): Promise<void> {
  try {
    // why: start after the answer is on its way; opening the store and the request cost a cold
    // start several milliseconds that the shopper would otherwise wait for
    await new Promise((resolve) => setImmediate(resolve))
    await openKeywordLogRepository(context).append(entry)
  } catch (error) {
    log.error('search.keyword_log_failed', error, { resultCount: entry.resultCount })
  }
}
