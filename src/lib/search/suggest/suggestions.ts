import { normalizeQuery } from '../textNormalization.js'
import { spellingKey } from '../query/searchAlternatives.js'
import { readSuggestData, type SuggestData, type SuggestionKind } from './suggestData.js'

/** Most completions one answer carries. */
const MAX_SUGGESTIONS = 8

/** One completion of GET /api/search/suggest. */
export interface Suggestion {
  text: string
  kind: SuggestionKind
  /** The page's URL path for a title, null for a tag. */
  slug: string | null
}

/** The body of a GET /api/search/suggest answer. */
export interface SuggestResponseBody {
  query: string
  suggestions: Suggestion[]
}

let loaded: SuggestData | null = null

/**
 * Up to 8 titles and tags that start with what was typed, compared as the search compares words
 * (kana, width, case, long vowel folded; spaces and hyphens ignored): the highest weights first
 * (tags on more pages, product titles), then in key order. Also at a title's later words.
 */
export function answerSuggest(params: URLSearchParams, data?: SuggestData): SuggestResponseBody {
  const query = normalizeQuery(params.get('q') ?? '')
  const key = spellingKey(query)
  if (!key) return { query, suggestions: [] }
  const source = data ?? (loaded ??= readSuggestData())
  return { query, suggestions: completions(source, key) }
}

function completions(data: SuggestData, prefix: string): Suggestion[] {
  const { keys, texts, kinds, slugs, weights } = data
  const best: number[] = []
  const seen = new Set<string>()
  for (let n = lowerBound(keys, prefix); n < keys.length && keys[n]!.startsWith(prefix); n++) {
    const text = texts[n]!
    if (seen.has(text)) continue
    seen.add(text)
    // why: the best 8 kept in order as the range is walked once (ranges can hold thousands)
    let at = best.length
    while (at > 0 && weights[best[at - 1]!]! < weights[n]!) at--
    if (at >= MAX_SUGGESTIONS) continue
    best.splice(at, 0, n)
    if (best.length > MAX_SUGGESTIONS) best.pop()
  }
  return best.map((n) => ({ text: texts[n]!, kind: kinds[n]!, slug: slugs[n]! }))
}

function lowerBound(keys: readonly string[], key: string): number {
  let low = 0
  let high = keys.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (keys[mid]! < key) low = mid + 1
    else high = mid
  }
  return low
}
