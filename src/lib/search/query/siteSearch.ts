import { excerptFromHead, makeExcerpt, type Excerpt } from './excerpt.js'
import { cjkRuns, isCjkTerm, textRuns } from '../terms/cjkTokenizer.js'
import {
  findFirstMatch,
  highlight,
  type KnownFirstMatches,
  type TextPlainness,
} from './highlight.js'
import { foldJapaneseRun } from '../terms/kanaFolding.js'
import { normalizeSearchText } from '../textNormalization.js'
import type { AlternativesOf, IndexAnswer, IndexHit } from './minisearchScoring.js'
import { loadPackedIndex, type PackedIndex } from './packedIndexSearch.js'
import { SEARCH_INDEX_FORMAT, searchOptions } from '../terms/indexOptions.js'
import type { StoredPage } from '../siteContentTypes.js'
import type { SiteSearchData } from '../index/searchDataReader.js'
import { isLatinIndexTerm } from '../terms/termEncoding.js'
import {
  fileTextSource,
  MissingSearchTextError,
  type SearchTextSource,
} from '../index/searchText.js'

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
      const words = query.split(' ').filter(Boolean)
      // why: each word's alternatives are looked up once, here and for the index
      const known = new Map(words.map((word) => [word, findAlternatives(word)]))
      const alternativesOf = (word: string) => known.get(word) ?? findAlternatives(word)
      const spellings = words.map((word) => [word, ...alternativesOf(word)])
      const adjacency = spellings.map(adjacentRuns)
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
      // reading shards reuses them (a second index search was ~a fifth of a cold start)
      const answers = new Map<number, IndexAnswer>()
      const searchIndex = (limit: number): IndexAnswer => {
        let answer = answers.get(limit)
        if (!answer) {
          // why: Japanese index terms are bigrams; the query's own Japanese runs are marked instead
          answer = index.search(query, limit, isLatinIndexTerm, alternativesOf)
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
        let before: { hits: readonly IndexHit[]; holding: readonly boolean[] } | null = null
        const holds = (hit: IndexHit, i: number): boolean =>
          before?.hits[i]?.id === hit.id
            ? before.holding[i]!
            : holdsAdjacent(readPage(data, hit.id), adjacency, textMayHold(hit), wholeText, knownIn)
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
            page,
            terms,
            excerptLength,
            textMayHold(hit),
            wholeText,
            knownIn,
          )
          results.push({
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

/**
 * A page's whole text; null while its shard is not read yet (the answer is then thrown away),
 * UNREAD when its shard could not be read in this answer.
 */
type WholeText = (page: StoredPage) => string | null | typeof UNREAD
const UNREAD = Symbol('unread')

/**
 * The pages' whole texts, for pages whose data holds only a head: the text shards read so far
 * (index/searchText.ts), kept for the instance's life.
 */
function pageTexts() {
  const tails = new Map<string, string>()
  const wholeTexts = new Map<string, string>()
  const shards = new Map<number, Promise<void>>()
  let local: { folder: string; source: SearchTextSource } | null = null
  return {
    /** The page's whole text, or null while its shard is not read. */
    whole(page: StoredPage): string | null {
      if (page.textShard === undefined) return page.text
      let text = wholeTexts.get(page.id)
      if (text === undefined) {
        const tail = tails.get(page.id)
        if (tail === undefined) return null
        // why: kept, so V8 flattens the joined string once, not at each answer
        text = page.text + tail
        wholeTexts.set(page.id, text)
        tails.delete(page.id)
      }
      return text
    },
    /**
     * Reads `wanted` shards (each once, also for answers at the same time); the shards that
     * could not be read, with why: a later read tries them again.
     */
    async read(
      data: SiteSearchData,
      wanted: Set<number>,
      remoteText?: SearchTextSource,
    ): Promise<Map<number, unknown>> {
      if (data.textFolder !== null && local?.folder !== data.textFolder) {
        local = { folder: data.textFolder, source: fileTextSource(data.textFolder) }
      }
      const source = local?.source ?? remoteText
      const failed = new Map<number, unknown>()
      await Promise.all(
        [...wanted].map((n) => {
          let reading = shards.get(n)
          if (!reading) {
            reading = source
              ? source.shard(data.dataId, n).then((shard) => {
                  for (const [id, tail] of Object.entries(shard)) tails.set(id, tail)
                })
              : Promise.reject(new MissingSearchTextError('no text source (no remoteText)'))
            shards.set(n, reading)
          }
          const read = reading
          return read.catch((error: unknown) => {
            if (shards.get(n) === read) shards.delete(n)
            failed.set(n, error)
          })
        }),
      )
      return failed
    },
  }
}

/** The page's excerpt from its head when that decides it, else from its whole text. */
function excerptOf(
  page: StoredPage,
  terms: readonly string[],
  excerptLength: number,
  mayMatch: boolean,
  wholeText: WholeText,
  knownIn: KnownIn,
): Excerpt {
  const plain = plainness(page)
  if (page.textShard !== undefined) {
    const fromHead = excerptFromHead(
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

/** The first matches found so far in a page's stored text in this answer (made when `create`). */
type KnownIn = (page: StoredPage, create: boolean) => KnownFirstMatches | undefined

/** What the data tells of the page's text (see TextPlainness). */
function plainness(page: StoredPage): TextPlainness {
  return page.textIsPlain === true || (page.textNotPlain ?? false)
}

// why: how many more hits are asked for when some were dropped (see holdsAdjacent)
const ADJACENCY_MARGIN = 2
// why: a word of two characters is one bigram, always adjacent; the two bigrams of a
// three-character word rarely occur apart, and checking them (珈琲豆 is on most pages of the
// bench) added a third to the full answer's time
const MIN_CHECKED_LENGTH = 4

function foldedRuns(text: string): string[] {
  return cjkRuns(normalizeSearchText(text)).map(foldJapaneseRun)
}

/**
 * A query word's spellings (the word, then its alternatives) as the folded Japanese runs a page
 * must hold as they are, or null when the word needs no check: some spelling is Latin, or has
 * no run longer than one bigram (a Latin word matched as it is listed; fuzzy ones cannot be
 * found in the text).
 */
function adjacentRuns(spellings: readonly string[]): string[][] | null {
  const all: string[][] = []
  for (const spelling of spellings) {
    const normalized = normalizeSearchText(spelling)
    const runs = textRuns(normalized)
    if (runs.some((run) => !isCjkTerm(run))) return null
    const long = runs.map(foldJapaneseRun).filter((run) => run.length >= MIN_CHECKED_LENGTH)
    if (long.length === 0) return null
    all.push(long)
  }
  return all
}

/**
 * Whether the page holds, for some query word, every run of one of its spellings as it is (its
 * bigrams next to each other, not only somewhere on the page); words needing no check count.
 * why: `ポインティング` let in 14 pages holding its bigrams apart, and ranked the right one 12th
 */
function holdsAdjacent(
  page: StoredPage | null,
  adjacency: readonly (string[][] | null)[],
  textMayHold: boolean,
  wholeText: WholeText,
  knownIn: KnownIn,
): boolean {
  if (!page || adjacency.some((runs) => runs === null)) return true
  // why: loops, not callbacks over a list of the fields made per hit: this runs for every hit of
  // a query with a long Japanese word (and its second index search)
  for (const spellings of adjacency) {
    for (const runs of spellings!) {
      let all = true
      for (const run of runs) {
        if (!fieldsHold(page, run) && !(textMayHold && textHolds(page, run, wholeText, knownIn))) {
          all = false
          break
        }
      }
      if (all) return true
    }
  }
  return false
}

/** Whether the page's title, description or a tag holds `run` (a Japanese run: no spaces). */
function fieldsHold(page: StoredPage, run: string): boolean {
  const terms = [run]
  if (findFirstMatch(page.title, terms) !== null) return true
  if (findFirstMatch(page.description, terms) !== null) return true
  for (const tag of page.tags) if (findFirstMatch(tag, terms) !== null) return true
  return false
}

/** Whether the page's text holds `run`: in its head when that decides, else in the whole. */
function textHolds(page: StoredPage, run: string, wholeText: WholeText, knownIn: KnownIn): boolean {
  const plain = plainness(page)
  const whole = page.textShard === undefined
  const spellings = page.textSpellings
  const inHead = findFirstMatch(
    page.text,
    [run],
    plain,
    whole ? knownIn(page, true) : undefined,
    spellings,
  )
  if (whole) return inHead !== null
  // why: a match this far from the head's end is one in the whole text (excerpt.ts's margin)
  if (inHead !== null && inHead + 4 * run.length + 8 <= page.text.length) return true
  const text = wholeText(page)
  // why: a text that cannot be read is not held against the page (the index matched it)
  if (text === UNREAD) return true
  return text !== null && findFirstMatch(text, [run], plain, undefined, spellings) !== null
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
