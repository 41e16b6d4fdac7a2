import type { Query } from 'minisearch'
import { makeExcerpt } from './excerpt.js'
import { cjkRuns } from './cjkTokenizer.js'
import { highlight } from './highlight.js'
import { loadShardedIndex, type ShardedIndex } from './indexShards.js'
import { unpackText } from './packedText.js'
import { SEARCH_INDEX_FORMAT, searchOptions } from './searchOptions.js'
import type { SiteContent, StoredPage } from './siteContentTypes.js'
import { isEncodedJapaneseTerm } from './termEncoding.js'

/** Most results one answer carries; `totalResults` still counts every match. */
export const MAX_RESULTS = 50

/** A search result (§2.5): the page's stored fields plus what the query adds. */
export interface SearchResult extends Omit<StoredPage, 'text'> {
  excerpt: string
  highlighted_title: string
  highlighted_excerpt: string
  score: number
}

export interface SiteSearchAnswer {
  results: SearchResult[]
  totalResults: number
}

export interface SiteSearch {
  /** Prepares the index (done by the first search when not called before); shards load lazily. */
  load(): void
  /** Searches with an already normalized, non-empty query. */
  search(query: string, excerptLength: number): SiteSearchAnswer
}

/** The generated module was built by other code than the one reading it. */
export class StaleSiteContentError extends Error {
  constructor(found: string, expected: string) {
    super(
      `src/generated/siteContent.ts has index format ${found}, this code reads ${expected}. ` +
        'Rebuild it with `npm run build`.',
    )
    this.name = 'StaleSiteContentError'
  }
}

/** Search over generated site content; `options` and `formatVersion` must be the build's. */
export function createSiteSearch(
  content: SiteContent,
  options = searchOptions,
  formatVersion = SEARCH_INDEX_FORMAT,
): SiteSearch {
  if (content.formatVersion !== formatVersion) {
    throw new StaleSiteContentError(content.formatVersion, formatVersion)
  }
  let index: ShardedIndex | null = null
  const load = (): ShardedIndex => (index ??= loadShardedIndex(content.searchIndex, options))
  const pages = new Map<string, StoredPage>()
  const readPage = (id: string): StoredPage | null => {
    let page = pages.get(id)
    const packed = content.packedPages[id]
    if (!page && packed !== undefined) {
      page = JSON.parse(unpackText(packed)) as StoredPage
      pages.set(id, page)
    }
    return page ?? null
  }

  return {
    load,
    search(query, excerptLength) {
      const { hits, total } = load().search(query, MAX_RESULTS)
      const queryRuns = cjkRuns(query)
      const results = hits.flatMap((hit): SearchResult[] => {
        const page = readPage(hit.id)
        if (!page) return []
        const terms = matchTerms(queryRuns, hit.terms)
        const { excerpt, highlightedExcerpt } = makeExcerpt(page.text, terms, excerptLength)
        return [
          {
            id: page.id,
            slug: page.slug,
            title: page.title,
            description: page.description,
            tags: page.tags,
            createdAt: page.createdAt,
            excerpt,
            highlighted_title: highlight(page.title, terms),
            highlighted_excerpt: highlightedExcerpt,
            score: hit.score,
          },
        ]
      })
      return { results, totalResults: total }
    },
  }
}

/**
 * Words of the query (split at spaces) are alternatives (OR); the terms inside one word must all
 * match (AND), so `予約商品` needs all of 予約, 約商 and 商品 rather than any of them. This is the
 * query the sharded index answers (indexShards.ts), as a MiniSearch query over a whole index.
 */
export function toQueryTree(query: string): Query {
  const words = query.split(' ').filter(Boolean)
  return {
    combineWith: 'OR',
    queries: words.map((word) => ({ combineWith: 'AND', queries: [word] })),
  }
}

/**
 * Terms to mark: Japanese query words whole (`ドリッパー`, not its bigrams `ドリ`, `パー` wherever
 * they occur), Latin ones as the indexed words they matched (`toko` marks `tokoname`).
 */
function matchTerms(queryRuns: readonly string[], indexTerms: readonly string[]): string[] {
  return [...queryRuns, ...indexTerms.filter((term) => !isEncodedJapaneseTerm(term))]
}
