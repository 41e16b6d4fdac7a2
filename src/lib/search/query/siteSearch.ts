import { makeExcerpt } from './excerpt.js'
import { cjkRuns } from '../terms/cjkTokenizer.js'
import { highlight } from './highlight.js'
import { loadPackedIndex, type PackedIndex } from './packedIndexSearch.js'
import { SEARCH_INDEX_FORMAT, searchOptions } from '../terms/indexOptions.js'
import type { StoredPage } from '../siteContentTypes.js'
import type { SiteSearchData } from '../index/searchDataReader.js'
import { isLatinIndexTerm } from '../terms/termEncoding.js'

/** Most results one answer carries; `totalResults` still counts every match. */
const MAX_RESULTS = 50

/** A search result (§2.5): the page's stored fields plus what the query adds. */
export interface SearchResult extends Omit<StoredPage, 'text' | 'textIsPlain'> {
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
  /** Reads the data and prepares the index (the first search does it when not called before). */
  load(): void
  /** Searches with an already normalized, non-empty query. */
  search(query: string, excerptLength: number): SiteSearchAnswer
}

/** The search data was built by other code than the one reading it. */
export class StaleSiteContentError extends Error {
  constructor(found: string, expected: string) {
    super(
      `The search data has index format ${found}, this code reads ${expected}. ` +
        'Rebuild it with `npm run build`.',
    )
    this.name = 'StaleSiteContentError'
  }
}

/**
 * Search over built site data, read by `source` at the first search (or `load`);
 * `options` and `formatVersion` must be the build's.
 */
export function createSiteSearch(
  source: () => SiteSearchData,
  options = searchOptions,
  formatVersion = SEARCH_INDEX_FORMAT,
): SiteSearch {
  let loaded: { data: SiteSearchData; index: PackedIndex } | null = null
  const load = (): { data: SiteSearchData; index: PackedIndex } => {
    if (!loaded) {
      const data = source()
      if (data.formatVersion !== formatVersion) {
        data.close()
        throw new StaleSiteContentError(data.formatVersion, formatVersion)
      }
      loaded = { data, index: loadPackedIndex(data.index, options) }
    }
    return loaded
  }
  const pages = new Map<string, StoredPage | null>()
  const readPage = (data: SiteSearchData, id: string): StoredPage | null => {
    let page = pages.get(id)
    if (page === undefined) {
      page = data.page(id)
      pages.set(id, page)
    }
    return page
  }

  return {
    load: () => void load(),
    search(query, excerptLength) {
      const { data, index } = load()
      // why: Japanese index terms are bigrams; the query's own Japanese runs are marked instead
      const { hits, total } = index.search(query, MAX_RESULTS, isLatinIndexTerm)
      const queryRuns = cjkRuns(query)
      const results = hits.flatMap((hit): SearchResult[] => {
        const page = readPage(data, hit.id)
        if (!page) return []
        const terms = matchTerms(queryRuns, hit.terms)
        const { excerpt, highlightedExcerpt } = makeExcerpt(
          page.text,
          terms,
          excerptLength,
          page.textIsPlain === true,
        )
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
 * Terms to mark: Japanese query words whole (`ドリッパー`, not its bigrams `ドリ`, `パー` wherever
 * they occur), Latin ones as the indexed words they matched (`toko` marks `tokoname`): the
 * hit's `terms`, which list only Latin index terms here (`isLatinIndexTerm`).
 */
function matchTerms(queryRuns: readonly string[], indexTerms: readonly string[]): string[] {
  return [...queryRuns, ...indexTerms]
}
