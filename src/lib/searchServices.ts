import type { Logger } from './log.js'
import { requestClock } from './clock.js'
import type { RequestContext } from './requestContext.js'
import {
  openKeywordLogRepository,
  type KeywordLogRepository,
} from './storage/keywordLogRepository.js'
import {
  openSearchSynonymRepository,
  type SearchSynonymRepository,
} from './storage/searchSynonymRepository.js'

/**
 * What a public search or completion answer works with: the part of `Services` (services.ts)
 * that the search and suggest functions open alone. Everything such a function imports is
 * parsed on a shopper's cold start, and the whole service layer (records, e-mail, audit) is
 * several times the search code: parsing it would lengthen every cold start. Each part is
 * opened when first used.
 */
export interface SearchServices {
  readonly context: RequestContext
  readonly log: Logger
  /** Keyword log store (§2.6). */
  readonly keywordLog: KeywordLogRepository
  /** The search synonyms staff added (docs/search.md "Synonyms"). */
  readonly searchSynonyms: SearchSynonymRepository
  /** Hands over work that may finish after the response (`context.waitUntil`). */
  defer(work: Promise<unknown>): void
  /** The request's clock, ms since the epoch: every service reads the time from it. */
  readonly now: () => number
}

export interface SearchServiceOptions {
  /** The clock of the request. Default: the wall clock (`requestClock`). */
  now?: () => number
}

export function openSearchServices(
  context: RequestContext,
  log: Logger,
  options: SearchServiceOptions = {},
): SearchServices {
  let keywordLog: KeywordLogRepository | undefined
  let searchSynonyms: SearchSynonymRepository | undefined
  return {
    context,
    log,
    get keywordLog() {
      return (keywordLog ??= openKeywordLogRepository(context))
    },
    get searchSynonyms() {
      return (searchSynonyms ??= openSearchSynonymRepository(context))
    },
    defer: (work) => void context.waitUntil?.(work),
    now: requestClock(options.now),
  }
}
