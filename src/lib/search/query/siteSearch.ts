import type { Options } from 'minisearch'
import type { SiteSearchData } from '../index/searchDataReader.js'
import { MissingSearchTextError, type SearchTextSource } from '../index/searchText.js'
import type { StoredPage } from '../siteContentTypes.js'
import { cjkRuns, textRuns } from '../terms/cjkTokenizer.js'
import { SEARCH_INDEX_FORMAT, searchOptions, type IndexedPage } from '../terms/indexOptions.js'
import { foldJapaneseRun } from '../terms/kanaFolding.js'
import { isLatinIndexTerm } from '../terms/termEncoding.js'
import { normalizeSearchText } from '../textNormalization.js'
import { ADJACENCY_MARGIN, adjacentRuns, holdsAdjacent } from './adjacency.js'
import { excerptFromHead, makeExcerpt, type Excerpt } from './excerpt.js'
import type { KnownFirstMatches } from './firstMatch.js'
import { highlight } from './highlight.js'
import { loadPackedIndex, type PackedIndex } from './packedIndexSearch.js'
import { readingAlternatives } from './readingAlternatives.js'
import {
  pageTexts,
  plainness,
  UNREAD,
  type KnownIn,
  type PageReading,
  type WholeText,
} from './pageTexts.js'
import type { IndexAnswer, IndexHit } from './scoring.js'
import type { AlternativesOf } from './wordTerms.js'
import { createSearchWorkspace, type Accelerators } from './workspace.js'

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
  /**
   * Present when text shards the answer needed could not be read: the pages concerned were
   * answered from their heads (excerpt from the head, adjacency not checked past it).
   */
  unreadText?: { shards: number; error: unknown }
}

export interface SiteSearch {
  /** Reads the data and prepares the index (the first search does it when not called before). */
  load(): void
  /**
   * Searches with an already normalized, non-empty query; `alternativesOf`: other spellings
   * each query word also finds (variants, synonyms; default none). A page's text past its head
   * is read, when an answer needs it, from the text shards beside the data file when they are
   * there (`SiteSearchData.textFolder`: npm start, tests, bench), else from `remoteText` (the
   * deployed function: the site's origin); read shards are kept for the instance's life. A
   * shard that cannot be read never fails the answer: its pages are answered from their heads
   * (`unreadText` says so) and a later answer reads it again. Settles without waiting when no
   * shard is needed.
   */
  search(
    query: string,
    excerptLength: number,
    alternativesOf?: AlternativesOf,
    remoteText?: SearchTextSource,
  ): Promise<SiteSearchAnswer>
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

export interface SiteSearchSettings {
  /** The index options the data was built with. Default `searchOptions` (terms/indexOptions.ts). */
  indexOptions?: Options<IndexedPage>
  /** The index format the data must have. Default SEARCH_INDEX_FORMAT (terms/indexOptions.ts). */
  formatVersion?: string
  /** Which accelerators answer (workspace.ts); default every one. The answers are the same. */
  accelerators?: Partial<Accelerators>
}

/**
 * Search over built site data, read by `source` at the first search (or `load`). The instance
 * owns what it keeps between answers: the index's decoded postings, the pages and texts read, and
 * its workspace (workspace.ts).
 */
export function createSiteSearch(
  source: () => SiteSearchData,
  {
    indexOptions = searchOptions,
    formatVersion = SEARCH_INDEX_FORMAT,
    accelerators,
  }: SiteSearchSettings = {},
): SiteSearch {
  const workspace = createSearchWorkspace(accelerators)
  const { text: caches } = workspace
  const heads = workspace.accelerators.textHeads
  let loaded: { data: SiteSearchData; index: PackedIndex } | null = null
  const load = (): { data: SiteSearchData; index: PackedIndex } => {
    if (!loaded) {
      const data = source()
      if (data.formatVersion !== formatVersion) {
        data.close()
        throw new StaleSiteContentError(data.formatVersion, formatVersion)
      }
      loaded = { data, index: loadPackedIndex(data.index, indexOptions, workspace) }
    }
    return loaded
  }
  // why: the site's readings are read at the first word that may be a reading, not at load
  const findReadings = readingAlternatives(() => load().data.readings())
  const texts = pageTexts()
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
    async search(query, excerptLength, findAlternatives = () => [], remoteText) {
      const { data, index } = load()
      const typed = query.split(' ').filter(Boolean)
      // why: each word's alternatives are looked up once, here and for the index
      const known = new Map(typed.map((word) => [word, findAlternatives(word)]))
      const alternativesOf = (word: string) => known.get(word) ?? findAlternatives(word)
      // why: a word without terms (a stand-alone `-`, `・`) matches nothing and needs no check;
      // kept, it let every page through the adjacency check (as the index search drops it)
      const words = typed.filter(
        (word) => textRuns(normalizeSearchText(word)).length > 0 || alternativesOf(word).length > 0,
      )
      // why: what the word's readings find beside its spellings, ranked below them (wordTerms.ts)
      const knownReadings = new Map(
        words.map((word) => {
          const spelled = alternativesOf(word)
          return [word, findReadings(word).filter((reading) => !spelled.includes(reading))]
        }),
      )
      const readingsOf = (word: string) => knownReadings.get(word) ?? []
      const spellings = words.map((word) => [word, ...alternativesOf(word), ...readingsOf(word)])
      const adjacency = words.map((word) =>
        withReadings(adjacentRuns([word, ...alternativesOf(word)]), readingsOf(word)),
      )
      const checked = adjacency.some((runs) => runs !== null)
      const queryRuns = [...new Set(spellings.flat().flatMap(foldedRuns))]
      // why: a run of two or more characters in a page's text puts its bigrams in the text's
      // postings, so a hit whose matched terms are none in its text holds none of these runs
      // there; a one-character run can end a Japanese run in the text and be no term's start
      const trustInText = queryRuns.every((run) => run.length >= 2)
      const textMayHold = (hit: IndexHit): boolean => !trustInText || hit.inText
      // why: each shard is tried once per answer; the instance reads it again at a later answer
      const asked = new Set<number>()
      const unread = new Map<number, unknown>()
      // why: the index's answers do not depend on the texts: an answer computed again after
      // reading shards reuses them (a second index search would add much to a cold start)
      const answers = new Map<number, IndexAnswer>()
      const searchIndex = (limit: number): IndexAnswer => {
        let answer = answers.get(limit)
        if (!answer) {
          // why: Japanese index terms are bigrams; the query's own Japanese runs are marked instead
          answer = index.search(query, limit, isLatinIndexTerm, alternativesOf, readingsOf)
          answers.set(limit, answer)
        }
        return answer
      }
      for (;;) {
        const missing = new Set<number>()
        const wholeText: WholeText = (page) => {
          const text = texts.whole(page)
          if (text !== null) return text
          const shard = page.textShard!
          if (asked.has(shard) && !unread.has(shard)) {
            // why: read, yet without this page (another deploy's file): never asked again here
            unread.set(shard, new MissingSearchTextError(`${data.dataId}/${shard} for ${page.id}`))
          }
          if (unread.has(shard)) return UNREAD
          missing.add(shard)
          return null
        }
        // why: within this answer, what the adjacency check found is not looked for again: an
        // excerpt's first match is often the run the check found, and the second index search's
        // hits begin with the first's
        const firstMatches = new Map<StoredPage, KnownFirstMatches>()
        // why: `create` false: the excerpt is the last look at the page, so it only reads
        const knownIn: KnownIn = (page, create) => {
          let known = firstMatches.get(page)
          if (!known && create) firstMatches.set(page, (known = new Map()))
          return known
        }
        const reading: PageReading = { caches, heads, wholeText, knownIn }
        let before: { hits: readonly IndexHit[]; holding: readonly boolean[] } | null = null
        const holds = (hit: IndexHit, i: number): boolean =>
          before?.hits[i]?.id === hit.id
            ? before.holding[i]!
            : holdsAdjacent(reading, readPage(data, hit.id), adjacency, textMayHold(hit))
        let answer = searchIndex(MAX_RESULTS)
        const holding = checked ? answer.hits.map(holds) : null
        let kept = holding ? answer.hits.filter((_, i) => holding[i]) : answer.hits
        // why: pages dropped for holding a word's bigrams apart are replaced from the next hits
        if (kept.length < answer.hits.length && answer.hits.length === MAX_RESULTS) {
          before = { hits: answer.hits, holding: holding! }
          answer = searchIndex(MAX_RESULTS * ADJACENCY_MARGIN)
          kept = answer.hits.filter(holds)
        }
        const { total } = answer
        const dropped = answer.hits.length - kept.length
        const results: SearchResult[] = []
        for (const hit of kept) {
          if (results.length === MAX_RESULTS) break
          const page = readPage(data, hit.id)
          if (!page) continue
          const terms = matchTerms(queryRuns, hit.terms)
          const { excerpt, highlightedExcerpt } = excerptOf(
            reading,
            page,
            terms,
            excerptLength,
            textMayHold(hit),
          )
          results.push({
            id: page.id,
            slug: page.slug,
            title: page.title,
            description: page.description,
            tags: page.tags,
            createdAt: page.createdAt,
            excerpt,
            highlighted_title: highlight(caches, page.title, terms),
            highlighted_excerpt: highlightedExcerpt,
            score: hit.score,
          })
        }
        if (missing.size === 0) {
          const answered = { results, totalResults: total - dropped }
          if (unread.size === 0) return answered
          const [error] = unread.values()
          return { ...answered, unreadText: { shards: unread.size, error } }
        }
        // why: the answer above used stand-ins for the texts it lacked; read them, answer again
        for (const [n, error] of await texts.read(data, missing, remoteText)) unread.set(n, error)
        for (const n of missing) asked.add(n)
      }
    },
  }
}

/** The page's excerpt from its head when that decides it, else from its whole text. */
function excerptOf(
  { caches, heads, wholeText, knownIn }: PageReading,
  page: StoredPage,
  terms: readonly string[],
  excerptLength: number,
  mayMatch: boolean,
): Excerpt {
  const plain = plainness(page)
  if (heads && page.textShard !== undefined) {
    const fromHead = excerptFromHead(
      caches,
      page.text,
      terms,
      excerptLength,
      plain,
      mayMatch,
      page.textSpellings,
    )
    if (fromHead) return fromHead
  }
  const text = wholeText(page)
  // why: without the whole text (not read yet: this answer is thrown away; unreadable: the
  // answer stands), the head's excerpt, as for a page whose match is not in its head
  return makeExcerpt(
    caches,
    typeof text === 'string' ? text : page.text,
    terms,
    excerptLength,
    plain,
    mayMatch,
    // why: first matches found in the page's text as stored (a head: not the whole text)
    page.textShard === undefined ? knownIn(page, false) : undefined,
    page.textSpellings,
  )
}

/**
 * A word's runs to hold whole (adjacentRuns) with its reading spellings' runs beside them: a
 * page holding the kanji word a reading found holds the word (`てつびん`: `テツビン` or `鉄瓶`).
 */
function withReadings(runs: string[][] | null, readings: readonly string[]): string[][] | null {
  if (runs === null || readings.length === 0) return runs
  return [...runs, ...readings.map(foldedRuns).filter((found) => found.length > 0)]
}

function foldedRuns(text: string): string[] {
  return cjkRuns(normalizeSearchText(text)).map(foldJapaneseRun)
}

/**
 * Terms to mark: Japanese query words whole (`ドリッパー`, not its bigrams `ドリ`, `パー` wherever
 * they occur), Latin ones as the indexed words they matched (`toko` marks `tokoname`): the
 * hit's `terms`, which list only Latin index terms here (`isLatinIndexTerm`).
 */
function matchTerms(
  queryRuns: readonly string[],
  indexTerms: readonly string[],
): readonly string[] {
  // why: a Japanese query's hits list no Latin terms: its runs serve every result unchanged
  return indexTerms.length === 0 ? queryRuns : [...queryRuns, ...indexTerms]
}
