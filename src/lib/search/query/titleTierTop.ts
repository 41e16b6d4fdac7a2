import {
  largestAt,
  orderOf,
  qualityFactor,
  topRanked,
  type MatchPool,
  type Matches,
} from './matchSets.js'
import {
  matchAndScore,
  scorePages,
  type Bm25,
  type ListsWork,
  type ScoringList,
} from './scoringLists.js'
import { matchedWordsTier, writeTitleTiers, type TitleDistances } from './titleFirstRanking.js'
import type { TitleTierScratch } from './workspace.js'

/*
 * An accelerator (workspace.ts, `Accelerators.titleTiers`) over the plain ranking of scoring.ts,
 * which scores every matching page: the same top pages, scores and total, scoring fewer pages.
 */

/** What the shortcut reads of a query word (scoring.ts). */
export interface TitleTierWord {
  termLists: ScoringList[][]
  sourceTerms: string[]
  titleDistances: TitleDistances
}

/** The best `limit` pages (short ids), their final scores, every word's matches, the total. */
export interface TitleTierAnswer<W> {
  words: (W & Matches)[]
  ranked: number[]
  score: Float64Array
  total: number
}

/** The parts of the workspace the shortcut works with (workspace.ts). */
export interface TitleTierWork extends ListsWork {
  matches: MatchPool
  titleTiers: TitleTierScratch
}

/**
 * The best `limit` pages of `words` (OR) when the title-first tiers (titleFirstRanking.ts) leave
 * few pages that can reach them: the tiers come from which words a page matches (counted, not
 * scored) and the title postings, so only the pages in the tiers reaching the top `limit` (the
 * candidates) are scored, with the same doubles as the full scoring. Null when it does not apply
 * (the caller scores every page).
 * why: a word on most pages (`珈琲豆` on over half of the bench site's) was scored page by page,
 * most of such a query's time; its title holds it on a few hundred
 */
export function titleTierTop<W extends TitleTierWord>(
  work: TitleTierWork,
  words: readonly W[],
  size: number,
  limit: number,
  bm25: Bm25,
): TitleTierAnswer<W> | null {
  if (!Number.isFinite(limit) || words.some((word) => word.termLists.length === 0)) return null
  // why: a single word's page reaches a tier above the rest only through its title; with fewer
  // such pages than `limit`, every page is a candidate and the counting pass would be wasted
  if (words.length === 1 && words[0]!.titleDistances.shortIds.length < limit) return null
  work.titleTiers.fit(size)
  const { marks } = work.titleTiers
  const titled = titleHolders(work, words, size)
  const score = work.matches.scratch('final', size)
  // why: a single word's candidates are its title holders, scored while counting; for several
  // words they are known only after counting, and scoring every word's title holders on the way
  // cost a two-word cold start more than it saved
  const single = words.length === 1
  const matched = countAndScoreTitled(work, words, size, single ? titled : null, bm25, score)
  const candidates = matched && topTierPages(work, matched, titled, size, limit)
  // why: a single word's candidates are always title holders (their tiers are above the rest);
  // checked, not assumed, as an unscored candidate would silently rank wrong
  const scored = single && !!candidates?.ranked.every((shortId) => marks[shortId] === 1)
  clearMarks(marks, titled)
  if (!matched || !candidates) return null
  const { ranked, tier, total } = candidates
  if (scored) applyQuality(matched, ranked, score)
  else scoreCandidates(work, matched, ranked, size, bm25, score)
  addTiers(ranked, tier, score)
  return { words: matched, ranked: topRanked(work.matches, ranked, score, limit), score, total }
}

/**
 * The pages whose title holds a query word, ascending, marked 1 in `marks`.
 * why: they are the candidates whenever the top tiers hold `limit` of them
 */
function titleHolders(
  work: TitleTierWork,
  words: readonly TitleTierWord[],
  size: number,
): Int32Array {
  const { marks } = work.titleTiers
  const holders = work.matches.empty(size)
  for (const { titleDistances } of words) {
    for (let n = 0; n < titleDistances.shortIds.length; n++) {
      const shortId = titleDistances.shortIds[n]!
      if (marks[shortId]) continue
      marks[shortId] = 1
      holders.ids[holders.count++] = shortId
    }
  }
  return orderOf(holders).sort()
}

function clearMarks(marks: Uint8Array, pages: Int32Array): void {
  for (let n = 0; n < pages.length; n++) marks[pages[n]!] = 0
}

/**
 * Every word's matches, counted in one pass over its lists that also scores the `titled` pages
 * (if given, marked in `marks`) into `score` (MiniSearch's sum over the words a page matches, in
 * word order; the quality factor not yet applied); null when a word has too many terms to count.
 */
function countAndScoreTitled<W extends TitleTierWord>(
  work: TitleTierWork,
  words: readonly W[],
  size: number,
  titled: Int32Array | null,
  bm25: Bm25,
  score: Float64Array,
): (W & Matches)[] | null {
  const { marks, started } = work.titleTiers
  const wordScore = work.matches.scratch('word', size)
  const scoring = titled && { pages: titled, marks, bm25, into: wordScore }
  const matched: (W & Matches)[] = []
  for (const word of words) {
    const matches = matchAndScore(work, word.termLists, size, scoring)
    if (!matches) break
    matched.push({ ...matches, ...word })
    if (titled) addWordScores(started, titled, matches.has, wordScore, score)
  }
  if (titled) for (let n = 0; n < titled.length; n++) started[titled[n]!] = 0
  return matched.length === words.length ? matched : null
}

// why: the first word a page matches starts its sum, as MiniSearch's OR does
function addWordScores(
  started: Uint8Array,
  pages: Int32Array,
  has: Uint8Array,
  wordScore: Float64Array,
  score: Float64Array,
): void {
  for (let n = 0; n < pages.length; n++) {
    const shortId = pages[n]!
    if (!has[shortId]) continue
    score[shortId] = started[shortId] ? score[shortId]! + wordScore[shortId]! : wordScore[shortId]!
    started[shortId] = 1
  }
}

/**
 * The pages in the tiers reaching the top `limit` (in MiniSearch's order), every page's tier and
 * how many pages match. `titled`: the pages whose title holds a word, marked in `marks`.
 */
function topTierPages(
  work: TitleTierWork,
  words: readonly (TitleTierWord & Matches)[],
  titled: Int32Array,
  size: number,
  limit: number,
): { ranked: Int32Array; tier: Float64Array; total: number } {
  const pool = work.matches
  const { marks } = work.titleTiers
  const tier = pool.scratch('tier', size)
  // why: a page whose title holds none of the words is at most in the tier of matching every
  // word; when `limit` titled pages are above it, only titled pages need tiers (hundreds instead
  // of the thousands matching every word)
  if (countMatchingEvery(words, titled) >= limit) {
    writeTitleTiers(words, titled, tier, marks)
    const lowest = largestAt(pool, titled, tier, limit)
    if (lowest > matchedWordsTier(words.length, words.length)) {
      // why: such pages match every word, so they come in the first word's order
      const candidates = pool.empty(size)
      const { ids, count } = words[0]!
      for (let n = 0; n < count; n++) {
        const shortId = ids[n]!
        if (marks[shortId] && tier[shortId]! >= lowest) {
          candidates.ids[candidates.count++] = shortId
        }
      }
      return { ranked: orderOf(candidates), tier, total: unionCount(pool, words, size) }
    }
  }
  // why: the pages matching every word are in tiers above the rest; when they fill the top
  // `limit`, only they need tiers
  let pages = words.length === 1 ? words[0]! : matchingEvery(pool, words, size)
  if (words.length > 1 && pages.count < limit) pages = union(pool, words, size)
  const order = orderOf(pages)
  writeTitleTiers(words, order, tier, pages.has)
  const lowest =
    order.length > limit ? largestAt(pool, order, tier, limit) : Number.NEGATIVE_INFINITY
  const candidates = pool.empty(size)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    if (tier[shortId]! >= lowest) candidates.ids[candidates.count++] = shortId
  }
  return { ranked: orderOf(candidates), tier, total: unionCount(pool, words, size) }
}

/** How many of `pages` match every word. */
function countMatchingEvery(words: readonly Matches[], pages: Int32Array): number {
  let count = 0
  for (let n = 0; n < pages.length; n++) {
    let all = 1
    for (let w = 0; w < words.length && all; w++) all = words[w]!.has[pages[n]!]!
    count += all
  }
  return count
}

/** The pages matching every word, in the order of the first word (MiniSearch's OR order). */
function matchingEvery(pool: MatchPool, words: readonly Matches[], size: number): Matches {
  const every = pool.empty(size)
  const { ids, count } = words[0]!
  for (let i = 0; i < count; i++) {
    const shortId = ids[i]!
    let all = true
    for (let w = 1; w < words.length && all; w++) all = words[w]!.has[shortId] === 1
    if (!all) continue
    every.has[shortId] = 1
    every.ids[every.count++] = shortId
  }
  return every
}

/** The pages matching any word, in MiniSearch's OR order: the first word's, then each next's new ones. */
function union(pool: MatchPool, words: readonly Matches[], size: number): Matches {
  const pages = pool.empty(size)
  for (const word of words) {
    for (let i = 0; i < word.count; i++) {
      const shortId = word.ids[i]!
      if (pages.has[shortId]) continue
      pages.has[shortId] = 1
      pages.ids[pages.count++] = shortId
    }
  }
  return pages
}

/** How many pages match any word. */
function unionCount(pool: MatchPool, words: readonly Matches[], size: number): number {
  if (words.length === 1) return words[0]!.count
  // why: two words: both counts less the pages in both, without marking the union; the pages
  // in both looked for among the fewer (a rare Latin name beside a word on most pages)
  if (words.length === 2) {
    const [first, second] = words as [Matches, Matches]
    const [fewer, more] = first.count <= second.count ? [first, second] : [second, first]
    let both = 0
    for (let n = 0; n < fewer.count; n++) both += more.has[fewer.ids[n]!]!
    return first.count + second.count - both
  }
  return union(pool, words, size).count
}

/**
 * MiniSearch's score of each candidate page into `score`: its words' scores added in word order,
 * times the quality factor.
 */
function scoreCandidates(
  work: TitleTierWork,
  words: readonly (TitleTierWord & Matches)[],
  candidates: Int32Array,
  size: number,
  bm25: Bm25,
  score: Float64Array,
): void {
  const pool = work.matches
  const { marks, started } = work.titleTiers
  const ascending = pool.empty(size)
  ascending.ids.set(candidates)
  const sorted = ascending.ids.subarray(0, candidates.length).sort()
  const wordScore = pool.scratch('word', size)
  const wordPages = pool.empty(size).ids
  for (const { has, termLists } of words) {
    let count = 0
    for (let n = 0; n < sorted.length; n++) {
      const shortId = sorted[n]!
      if (!has[shortId]) continue
      wordPages[count++] = shortId
      marks[shortId] = 1
    }
    const pages = wordPages.subarray(0, count)
    scorePages(work, termLists, pages, marks, bm25, wordScore)
    clearMarks(marks, pages)
    addWordScores(started, pages, has, wordScore, score)
  }
  for (let n = 0; n < sorted.length; n++) started[sorted[n]!] = 0
  applyQuality(words, candidates, score)
}

// why: MiniSearch multiplies a page's score by the number of query terms it matched
function applyQuality(
  words: readonly (TitleTierWord & Matches)[],
  pages: Int32Array,
  score: Float64Array,
): void {
  const quality = qualityFactor(words)
  for (let n = 0; n < pages.length; n++) {
    const shortId = pages[n]!
    score[shortId] = score[shortId]! * quality(shortId)
  }
}

// why: as rerankTitleFirst: the tier with the BM25 score squeezed into s / (1 + s)
function addTiers(pages: Int32Array, tier: Float64Array, score: Float64Array): void {
  for (let n = 0; n < pages.length; n++) {
    const shortId = pages[n]!
    const s = score[shortId]!
    score[shortId] = tier[shortId]! + s / (1 + s)
  }
}
