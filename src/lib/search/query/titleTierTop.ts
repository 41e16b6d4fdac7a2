import {
  emptyMatches,
  largestAt,
  orderOf,
  qualityFactor,
  scratch,
  topRanked,
  type Matches,
} from './matchSets.js'
import { countAndScore, matchAll, scorePages, type Bm25, type ScoringList } from './scoringLists.js'
import {
  writeSingleWordTitleTiers,
  writeTitleTiers,
  type TitleDistances,
} from './titleFirstRanking.js'

/** What the shortcut reads of a query word (minisearchScoring.ts). */
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

let marks = new Uint8Array(0)
let started = new Uint8Array(0)

/**
 * The best `limit` pages of `words` (OR) when the title-first tiers (titleFirstRanking.ts) leave
 * few pages that can reach them: the tiers come from which words a page matches (counted, not
 * scored) and the title postings, so only the pages in the tiers reaching the top `limit` are
 * scored, with the same doubles as the full scoring. Null when it does not apply (the caller
 * scores every page).
 * why: a word on most pages (`珈琲豆` on 11,844 of 20,000) was scored page by page, most of a
 * 20,000-page query; its title holds it on a few hundred
 */
export function titleTierTop<W extends TitleTierWord>(
  words: readonly W[],
  size: number,
  limit: number,
  bm25: Bm25,
): TitleTierAnswer<W> | null {
  if (!Number.isFinite(limit) || words.some((word) => word.termLists.length === 0)) return null
  // why: a single word's page reaches a tier above the rest only through its title; with fewer
  // such pages than `limit`, every page is a candidate and the counting pass would be wasted
  if (words.length === 1) {
    return words[0]!.titleDistances.shortIds.length < limit
      ? null
      : singleWordTop(words[0]!, size, limit, bm25)
  }
  const matched: (W & Matches)[] = []
  for (const word of words) {
    const matches = matchAll(word.termLists, size)
    if (!matches) return null
    matched.push({ ...matches, ...word })
  }
  if (marks.length < size) marks = new Uint8Array(size)
  // why: the pages matching every word are in tiers above the rest; when they fill the top
  // `limit`, only they need tiers (a few thousand instead of the 13,000 of the union)
  let pages = matchingEvery(matched, size)
  let total: number
  if (pages.count >= limit) {
    total = unionCount(matched)
  } else {
    pages = union(matched, size)
    total = pages.count
  }
  const order = orderOf(pages)
  const tier = writeTitleTiers(matched, order, scratch('tier', size), pages.has)
  let lowest = Number.NEGATIVE_INFINITY
  if (order.length > limit) lowest = largestAt(order, tier, limit)
  const candidates = emptyMatches(size)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    if (tier[shortId]! >= lowest) candidates.ids[candidates.count++] = shortId
  }
  const ranked = orderOf(candidates)
  const score = scoreCandidates(matched, ranked, size, bm25)
  addTiers(ranked, tier, score)
  return { words: matched, ranked: topRanked(ranked, score, limit), score, total }
}

/** The pages matching every word, in the order of the first word (MiniSearch's OR order). */
function matchingEvery(words: readonly Matches[], size: number): Matches {
  const every = emptyMatches(size)
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

/** The pages matching any word, in MiniSearch's OR order: the first word's, then each next word's new ones. */
function union(words: readonly Matches[], size: number): Matches {
  const pages = emptyMatches(size)
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
function unionCount(words: readonly Matches[]): number {
  let count = 0
  for (let w = 0; w < words.length; w++) {
    const { ids, count: wordCount } = words[w]!
    for (let i = 0; i < wordCount; i++) {
      const shortId = ids[i]!
      let earlier = false
      for (let e = 0; e < w && !earlier; e++) earlier = words[e]!.has[shortId] === 1
      if (!earlier) count++
    }
  }
  return count
}

/**
 * `titleTierTop` for one word whose title holders reach the top `limit`: the candidates come
 * from the titles alone, so the word's lists are walked once, counting and scoring together.
 * The word's matches hold only the candidates (every page ranked is one).
 */
function singleWordTop<W extends TitleTierWord>(
  word: W,
  size: number,
  limit: number,
  bm25: Bm25,
): TitleTierAnswer<W> | null {
  if (marks.length < size) marks = new Uint8Array(size)
  const holders = word.titleDistances.shortIds
  const tier = writeSingleWordTitleTiers(word.titleDistances, scratch('tier', size))
  const lowest = largestAt(holders, tier, limit)
  let count = 0
  const pages = new Int32Array(holders.length)
  for (let n = 0; n < holders.length; n++) {
    const shortId = holders[n]!
    if (tier[shortId]! >= lowest) pages[count++] = shortId
  }
  const ascending = pages.subarray(0, count).sort()
  for (let n = 0; n < ascending.length; n++) {
    const shortId = ascending[n]!
    marks[shortId] = 1
  }
  const matches = emptyMatches(size)
  const score = scratch('final', size)
  const total = countAndScore(word.termLists, size, ascending, marks, bm25, score, matches.ids)
  for (let n = 0; n < ascending.length; n++) {
    const shortId = ascending[n]!
    marks[shortId] = 0
  }
  if (total === null) return null
  matches.count = count
  const ranked = orderOf(matches)
  const quality = qualityFactor([{ has: matches.has, sourceTerms: word.sourceTerms }])(0)
  for (let n = 0; n < ranked.length; n++) {
    const shortId = ranked[n]!
    matches.has[shortId] = 1
    score[shortId] = score[shortId]! * quality
  }
  addTiers(ranked, tier, score)
  return {
    words: [{ ...matches, ...word }],
    ranked: topRanked(ranked, score, limit),
    score,
    total,
  }
}

// why: as searchWords: the tier with MiniSearch's score squeezed into s / (1 + s)
function addTiers(pages: Int32Array, tier: Float64Array, score: Float64Array): void {
  for (let n = 0; n < pages.length; n++) {
    const shortId = pages[n]!
    const s = score[shortId]!
    score[shortId] = tier[shortId]! + s / (1 + s)
  }
}

/**
 * MiniSearch's score of each candidate page: its words' scores added in word order, times the
 * quality factor (matchSets.ts).
 */
function scoreCandidates(
  words: readonly (TitleTierWord & Matches)[],
  candidates: Int32Array,
  size: number,
  bm25: Bm25,
): Float64Array {
  const ascending = candidates.slice().sort()
  if (started.length < size) started = new Uint8Array(size)
  const score = scratch('final', size)
  const wordScore = scratch('word', size)
  const wordPages = new Int32Array(ascending.length)
  for (let w = 0; w < words.length; w++) {
    const { has, termLists } = words[w]!
    let count = 0
    for (let n = 0; n < ascending.length; n++) {
      const shortId = ascending[n]!
      if (!has[shortId]) continue
      wordPages[count++] = shortId
      marks[shortId] = 1
    }
    const pages = wordPages.subarray(0, count)
    scorePages(termLists, pages, marks, bm25, wordScore)
    for (let n = 0; n < pages.length; n++) {
      const shortId = pages[n]!
      // why: the first word a page matches starts its sum, as MiniSearch's OR does
      score[shortId] = started[shortId]
        ? score[shortId]! + wordScore[shortId]!
        : wordScore[shortId]!
      started[shortId] = 1
      marks[shortId] = 0
    }
  }
  const quality = qualityFactor(words)
  for (let n = 0; n < ascending.length; n++) {
    const shortId = ascending[n]!
    score[shortId] = score[shortId]! * quality(shortId)
    started[shortId] = 0
  }
  return score
}
