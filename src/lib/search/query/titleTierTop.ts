import { scratch, topRanked, type Matches } from './matchSets.js'
import { matchAll, pageScore, type Bm25, type ScoringList } from './scoringLists.js'

/** What the shortcut reads of a query word (minisearchScoring.ts). */
export interface TitleTierWord {
  termLists: ScoringList[][]
  sourceTerms: string[]
  titleDistances: Map<number, number>
}

let marks = new Uint8Array(0)

/**
 * A one-word query's best `limit` pages when at least `limit` matching pages hold the word in
 * their title: the title-first tiers (titleFirstRanking.ts) are known from the title postings
 * alone, so only the pages in the tiers that reach the top `limit` are scored, each on its own
 * with the same doubles as the full scoring; the others are only counted. Null when it does not
 * apply (the caller scores every page).
 * why: a word on most pages (`珈琲豆` on 11,844 of 20,000) was scored page by page, most of a
 * 20,000-page cold start; its title holds it on a few hundred
 */
export function titleTierTop<W extends TitleTierWord>(
  word: W,
  size: number,
  limit: number,
  bm25: Bm25,
): { word: W & Matches; ranked: number[]; score: Float64Array } | null {
  const { titleDistances, termLists } = word
  if (!Number.isFinite(limit) || titleDistances.size < limit || termLists.length === 0) return null
  const matches = matchAll(termLists, size)
  if (!matches) return null
  const tiers: number[] = []
  for (const [shortId, distance] of titleDistances) {
    if (matches.has[shortId]) tiers.push(tierOf(distance))
  }
  if (tiers.length < limit) return null
  tiers.sort((a, b) => b - a)
  const lowest = tiers[limit - 1]!
  if (marks.length < size) marks = new Uint8Array(size)
  for (const [shortId, distance] of titleDistances) {
    if (matches.has[shortId] && tierOf(distance) >= lowest) marks[shortId] = 1
  }
  // why: in the order of the full match set, which breaks ties between equal scores
  const candidates: number[] = []
  for (const shortId of matches.order) {
    if (!marks[shortId]) continue
    marks[shortId] = 0
    candidates.push(shortId)
  }
  const score = scratch('final', size)
  const quality = word.sourceTerms.length || 1
  for (const shortId of candidates) {
    // why: as searchWords: MiniSearch's quality factor, then the tier with s / (1 + s)
    const s = pageScore(termLists, shortId, bm25) * quality
    score[shortId] = tierOf(titleDistances.get(shortId)!) + s / (1 + s)
  }
  return { word: { ...matches, ...word }, ranked: topRanked(candidates, score, limit), score }
}

/** rerankTitleFirst's tier of a one-word query's page holding the word in its title. */
function tierOf(distance: number): number {
  const base = 2
  return base * base * base + ((distance === 0 ? base * base : 0) + (distance <= 1 ? base : 0) + 1)
}
