import { normalizeQuery } from '../textNormalization.js'
import { spellingKey, type KeyedWordGroups } from '../query/searchAlternatives.js'
import { readSuggestData, type SuggestData, type SuggestionKind } from './suggestData.js'
import { isKanaWord, readingKey } from '../terms/readingKey.js'
import { mayBeRomaji, romajiPrefixToKana } from '../terms/romaji.js'

/**
 * The fewest kana of a reading completed by reading.
 * why: one kana starts too many words (`ma` → 豆, 抹茶, 窓…) to be what the shopper means
 */
const MIN_READING_PREFIX = 2
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

// why: this deploy's completions, read at the first answer that needs them and kept while the
// function instance lives (`answerSuggest` without `data`)
let deployedData: SuggestData | null = null

/**
 * Up to 8 titles and tags that start with what was typed, compared as the search compares words
 * (kana, width, case, long vowel folded; spaces and hyphens ignored): the highest weights first
 * (tags on more pages, product titles), then in key order. Also at a title's later words. When
 * fewer than 8 are found, the rest come through `groups` (spelling variants and synonyms, each
 * word with its spelling key): a word of a group that starts with what was typed completes as
 * the group's other words do (`matc` → `matcha` = `抹茶` → titles and tags starting with 抹茶);
 * then, typed in kana or romaji, titles and tags holding a kanji word whose reading starts so
 * (`きゅ`, `kyu` → `急須`; `tetsu` → `鉄瓶`). `data`: the completions; default this deploy's file
 * (SUGGEST_DATA_PATH), read once per instance.
 */
export function answerSuggest(
  params: URLSearchParams,
  groups: KeyedWordGroups = [],
  data?: SuggestData,
): SuggestResponseBody {
  const query = normalizeQuery(params.get('q') ?? '')
  const key = spellingKey(query)
  if (!key) return { query, suggestions: [] }
  const source = data ?? (deployedData ??= readSuggestData())
  const seen = new Set<string>()
  const best = bestInRanges(source, [key], seen)
  if (best.length < MAX_SUGGESTIONS) {
    const others = synonymKeys(groups, key)
    if (others.length > 0) {
      best.push(...bestInRanges(source, others, seen).slice(0, MAX_SUGGESTIONS - best.length))
    }
  }
  if (best.length < MAX_SUGGESTIONS) {
    const kana = isKanaWord(key) ? key : mayBeRomaji(query) ? romajiPrefixToKana(query) : ''
    const prefix = kana ? readingKey(kana) : ''
    if (prefix.length >= MIN_READING_PREFIX) {
      const { readingKeys, readingEntries } = source
      const byReading = bestInRanges(source, [prefix], seen, readingKeys, (i) => readingEntries[i]!)
      best.push(...byReading.slice(0, MAX_SUGGESTIONS - best.length))
    }
  }
  const { texts, kinds, slugs } = source
  return {
    query,
    suggestions: best.map((n) => ({ text: texts[n]!, kind: kinds[n]!, slug: slugs[n]! })),
  }
}

/** The keys of the other words of each group with a word starting with `prefix`. */
function synonymKeys(groups: KeyedWordGroups, prefix: string): string[] {
  const keys: string[] = []
  for (const group of groups) {
    for (const [memberKey] of group) {
      if (!memberKey.startsWith(prefix)) continue
      for (const [otherKey] of group) {
        if (otherKey && otherKey !== memberKey && !otherKey.startsWith(prefix)) {
          if (!keys.includes(otherKey)) keys.push(otherKey)
        }
      }
    }
  }
  return keys
}

/**
 * The best 8 entries (by weight, then key order) whose keys start with one of `prefixes`; `keys`
 * and `entryOf`: the sorted keys looked in and the entry each names (default the completions').
 */
function bestInRanges(
  data: SuggestData,
  prefixes: readonly string[],
  seen: Set<string>,
  keys: readonly string[] = data.keys,
  entryOf: (i: number) => number = (i) => i,
): number[] {
  const { texts } = data
  const best: number[] = []
  const found = new Set<string>()
  for (const prefix of prefixes) {
    for (let i = lowerBound(keys, prefix); i < keys.length && keys[i]!.startsWith(prefix); i++) {
      const n = entryOf(i)
      const text = texts[n]!
      if (seen.has(text) || found.has(text)) continue
      found.add(text)
      // why: the best 8 kept in order as the range is walked once (ranges can hold thousands)
      let at = best.length
      while (at > 0 && better(data, n, best[at - 1]!)) at--
      if (at >= MAX_SUGGESTIONS) continue
      best.splice(at, 0, n)
      if (best.length > MAX_SUGGESTIONS) best.pop()
    }
  }
  for (const n of best) seen.add(texts[n]!)
  return best
}

// why: within one range entries come in key order, so weight alone kept that order as the tie
// break; across ranges (synonyms) the lower entry number is the earlier key
const better = (data: SuggestData, n: number, than: number): boolean =>
  data.weights[n]! > data.weights[than]! || (data.weights[n] === data.weights[than] && n < than)

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
