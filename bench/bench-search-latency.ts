/**
 * Query latency in a process of its own, as a function instance holds nothing but its index:
 * `tsx bench/bench-search-latency.ts <index|answer|plain|suggest> <data file> <queries.json>`
 * prints `{"p50": ms, "p99": ms}`. `index`: the packed index's search; `answer`: the whole answer
 * with excerpts and highlighting; `plain`: MiniSearch with default options, the file its JSON;
 * `suggest`: completions (the file search-suggest.json) with 500 staff-sized synonym groups.
 * Run by bench-search.ts.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import MiniSearch, { type Options } from 'minisearch'
import { loadPackedIndex } from '../src/lib/search/query/packedIndexSearch.js'
import { searchOptions, type IndexedPage } from '../src/lib/search/terms/indexOptions.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import { decodeSiteSearchData, fileSource } from '../src/lib/search/index/searchDataReader.js'
import { fileTextSource } from '../src/lib/search/index/searchText.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { isLatinIndexTerm } from '../src/lib/search/terms/termEncoding.js'
import { alternativesFinder, keyedGroups } from '../src/lib/search/query/searchAlternatives.js'
import { SPELLING_VARIANTS } from '../src/lib/search/terms/spellingVariants.js'
import type { SuggestData } from '../src/lib/search/suggest/suggestData.js'
import { answerSuggest } from '../src/lib/search/suggest/suggestions.js'
import { JA_NOUNS, KATAKANA } from './bench-search-corpus.js'

export type LatencyMode = 'index' | 'answer' | 'plain' | 'suggest'
export interface Latency {
  p50: number
  p99: number
}

const ROUNDS = 5
// why: a p99 means the same with every query set: the 10th-slowest of 1,000 answers at least
// (a short query list's few rounds made it one GC pause)
const MIN_ANSWERS = 1000

/** "Plain MiniSearch": default tokenizer and processTerm, searched with §4.11's options. */
export const baselineOptions: Options<IndexedPage> = {
  fields: ['title', 'description', 'tags', 'text'],
  extractField: (doc, field) => {
    const value = doc[field as keyof IndexedPage]
    return Array.isArray(value) ? value.join(' ') : value
  },
  searchOptions: { prefix: true, fuzzy: 0.2, boost: { title: 3, description: 2 } },
}

/**
 * As many synonym groups as staff may keep (500), each a word of the generated site's titles
 * and a Latin word only the group knows (`syn12`), for the suggestions' latency.
 */
export const STAFF_SIZED_SYNONYMS: string[][] = Array.from({ length: 500 }, (_, i) => [
  [...JA_NOUNS, ...KATAKANA][i % (JA_NOUNS.length + KATAKANA.length)]!,
  `syn${i}`,
])

// why: a warm instance's heap has grown to its working size; a small site's warm-up answers
// are over so soon that the young generation still grew during the timed ones, its scavenges
// then making the p99 of one run differ from the next several times over
const MIN_WARM_MS = 1000

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/**
 * p50 and p99 of `run` over `ROUNDS` passes of `queries` (more for a short list, see
 * `MIN_ANSWERS`), after as many passes to warm up (and at least `MIN_WARM_MS`); an answer that
 * is a promise is timed until it settles.
 * why: the site search's answer is async: timed without waiting, an answer needing a text shard
 * stopped at its read and was never finished (the shard's text reached the instance only after
 * the last round), so a large site's figure timed half-answers
 */
export async function latencies(
  run: (query: string) => unknown,
  queries: readonly string[],
): Promise<Latency> {
  // why: warm the JIT and the lazily read postings with as many answers as are measured: after
  // one pass of a short query list V8 was still compiling the search code during the measured
  // answers (pauses on the main thread), which is an instance's warm-up, not its steady state
  const rounds = Math.max(ROUNDS, Math.ceil(MIN_ANSWERS / queries.length))
  const warmUntil = performance.now() + MIN_WARM_MS
  for (let round = 0; round < rounds || performance.now() < warmUntil; round++) {
    for (const query of queries) {
      const answer = run(query)
      if (answer instanceof Promise) await answer
    }
  }
  const samples: number[] = []
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      const started = performance.now()
      const answer = run(query)
      if (answer instanceof Promise) await answer
      samples.push(performance.now() - started)
    }
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) }
}

function searcher(mode: LatencyMode, file: string): (query: string) => unknown {
  if (mode === 'plain') {
    const baseline = MiniSearch.loadJSON<IndexedPage>(readFileSync(file, 'utf8'), baselineOptions)
    return (query) => void baseline.search(query)
  }
  if (mode === 'suggest') {
    const data = JSON.parse(readFileSync(file, 'utf8')) as SuggestData
    const groups = keyedGroups([...SPELLING_VARIANTS, ...STAFF_SIZED_SYNONYMS])
    return (query) => void answerSuggest(new URLSearchParams({ q: query }), groups, data)
  }
  const data = decodeSiteSearchData(fileSource(file))
  if (mode === 'index') {
    const index = loadPackedIndex(data.index, searchOptions)
    // why: what the service asks: the top 50, listing only the Latin terms it highlights
    return (query) => void index.search(normalizeQuery(query), 50, isLatinIndexTerm)
  }
  const search = createSiteSearch(() => data)
  // why: as the service answers: with the okurigana variants shipped with the code
  const alternatives = alternativesFinder(keyedGroups(SPELLING_VARIANTS))
  // why: the text shards beside the data file; after the warm-up rounds every shard the queries
  // need is in the instance and each answer settles without waiting (the time measured is the
  // answer's); the cost of reading a shard is measured apart (bench-search-text.ts)
  const text = fileTextSource(path.dirname(file))
  return (query) => search.search(normalizeQuery(query), 200, alternatives, text)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [mode, file, queriesFile] = process.argv.slice(2) as [LatencyMode, string, string]
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')) as string[]
  console.log(JSON.stringify(await latencies(searcher(mode, file), queries)))
}
