import type { SearchServices } from '../../searchServices.js'
import type { KeywordLogEntry } from '../../storage/keywordLogRepository.js'
import { deployedSiteSearch } from './defaultSiteSearch.js'
import { searchSpellings } from './searchSpellings.js'
import { parseExcerptLength } from './excerpt.js'
import type { SearchResult } from './siteSearch.js'
import { normalizeQuery } from '../textNormalization.js'
import type { SearchTextSource } from '../index/searchText.js'

/**
 * The query parameter the storefront widget adds to its as-you-type requests (`typing=1`): such
 * a search is answered as any other and not logged (§2.6), so the keyword log counts the searches
 * shoppers settled on, not each pause in their typing. Without it every search is logged (§4.11).
 */
export const TYPING_PARAM = 'typing'

/** The body of a GET /api/search answer (§4.11). */
export interface SearchResponseBody {
  results: SearchResult[]
  query: string
  totalResults: number
}

/**
 * Answers GET /api/search from its query parameters with this deploy's search
 * (deployedSiteSearch) and logs the keyword in the background (§2.6), stamped by the services'
 * clock; an empty query is no search and is not logged, nor is one marked `typing=1`. Variants
 * and synonyms: searchSpellings. `remoteText`: where pages' text past their heads is read when it
 * is not beside the data file (SiteSearch.search).
 */
export async function answerSearch(
  params: URLSearchParams,
  services: SearchServices,
  remoteText?: SearchTextSource,
): Promise<SearchResponseBody> {
  const query = normalizeQuery(params.get('q') ?? '')
  if (!query) return { results: [], query: '', totalResults: 0 }
  const searchedAt = services.now()
  const { results, totalResults, unreadText } = await deployedSiteSearch.search(
    query,
    parseExcerptLength(params.get('excerpt_length')),
    searchSpellings(services, searchedAt),
    remoteText,
  )
  if (unreadText) {
    // why: the shopper still gets an answer (excerpts from page heads); one line per answer
    const { error, shards } = unreadText
    services.log.warn('search.text_unavailable', {
      shards,
      error: error instanceof Error ? error.message : String(error),
      cause: error instanceof Error && error.cause instanceof Error ? error.cause.message : null,
    })
  }
  if (params.get(TYPING_PARAM) !== '1') {
    const entry = {
      keyword: query,
      timestamp: new Date(searchedAt).toISOString(),
      resultCount: totalResults,
    }
    services.defer(recordKeyword(entry, services))
  }
  return { results, query, totalResults }
}

/** Writes one keyword log entry; a failure is logged and never reaches the search answer (§6). */
async function recordKeyword(entry: KeywordLogEntry, services: SearchServices): Promise<void> {
  try {
    // why: start after the answer is on its way; opening the store and sending the request
    // would otherwise lengthen the shopper's wait on a cold start
    await new Promise((resolve) => setImmediate(resolve))
    await services.keywordLog.append(entry)
  } catch (error) {
    services.log.error('search.keyword_log_failed', error, { resultCount: entry.resultCount })
  }
}
