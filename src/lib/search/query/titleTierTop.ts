import { scratch, topRanked, type Matches } from './matchSets.js'
import { matchAll, pageScore, type Bm25, type ScoringList } from './scoringLists.js'
import { writeTitleTiers } from './titleFirstRanking.js'

/** What the shortcut reads of a query word (minisearchScoring.ts). */
export interface TitleTierWord {
  termLists: ScoringList[][]
  sourceTerms: string[]
  titleDistances: Map<number, number>
}

/** The best `limit` pages (short ids), their final scores, every word's matches, the total. */
export interface TitleTierAnswer<W> {
  words: (W & Matches)[]
  ranked: number[]
  score: Float64Array
  total: number
}

let marks = new Uint8Array(0)

/** What a posting of the full scoring costs, in steps of a binary search (measured roughly). */
const POSTING_STEPS = 3

/**
 * The best `limit` pages of `words` (OR) when the title-first tiers (titleFirstRanking.ts) leave
 * few pages that can reach them: the tiers come from which words a page matches (counted, not
 * scored) and the title postings, so only the pages in the tiers reaching the top `limit` are
 * scored, each on its own with the same doubles as the full scoring. Null when it does not
 * apply (the caller scores every page).
 * why: a word on most pages (`珈琲豆` on 11,844 of 20,000) was scored page by page, most of a
 * 20,000-page cold start; its title holds it on a few hundred
 */
export function titleTierTop<W extends TitleTierWord>(
  words: readonly W[],
  size: number,
  limit: number,
  bm25: Bm25,
): TitleTierAnswer<W> | null {
  if (!Number.isFinite(limit) || words.some((word) => word.termLists.length === 0)) return null
  let steps = 0
  let postings = 0
  for (const word of words) {
    for (const termLists of word.termLists) {
      for (const { postings: list } of termLists) {
        postings += list.ids.length
        steps += 32 - Math.clz32(list.ids.length)
      }
    }
  }
  // why: scoring a page on its own costs a binary search in every postings list (`steps` for
  // all), so the shortcut pays only when it skips most postings (a one-letter word reaches
  // dozens of large lists through its prefix expansions)
  const affordable = (pages: number): boolean =>
    pages <= limit || pages * steps <= postings * POSTING_STEPS
  // why: a single word's page reaches a tier above the rest only through its title
  const { titleDistances } = words[0]!
  if (words.length === 1 && (titleDistances.size < limit || !affordable(titleDistances.size))) {
    return null
  }
  const matched: (W & Matches)[] = []
  for (const word of words) {
    const matches = matchAll(word.termLists, size)
    if (!matches) return null
    matched.push({ ...matches, ...word })
  }
  if (marks.length < size) marks = new Uint8Array(size)
  // why: the order MiniSearch's OR gives: the first word's pages, then each next word's new ones
  const order: number[] = []
  for (const { order: wordOrder } of matched) {
    for (const shortId of wordOrder) {
      if (marks[shortId]) continue
      marks[shortId] = 1
      order.push(shortId)
    }
  }
  for (const shortId of order) marks[shortId] = 0
  const tier = writeTitleTiers(matched, order, scratch('tier', size))
  let lowest = Number.NEGATIVE_INFINITY
  if (order.length > limit) {
    const sorted = scratch('rank', order.length)
    for (let i = 0; i < order.length; i++) sorted[i] = tier[order[i]!]!
    sorted.sort()
    lowest = sorted[order.length - limit]!
  }
  const candidates: number[] = []
  for (const shortId of order) if (tier[shortId]! >= lowest) candidates.push(shortId)
  if (!affordable(candidates.length)) return null
  const score = scratch('final', size)
  for (const shortId of candidates) {
    let s = 0
    let first = true
    const terms: string[] = []
    for (const word of matched) {
      if (!word.has[shortId]) continue
      const wordScore = pageScore(word.termLists, shortId, bm25)
      s = first ? wordScore : s + wordScore
      first = false
      for (const term of word.sourceTerms) if (!terms.includes(term)) terms.push(term)
    }
    // why: as searchWords: MiniSearch's quality factor, then the tier with s / (1 + s)
    s = s * (terms.length || 1)
    score[shortId] = tier[shortId]! + s / (1 + s)
  }
  return { words: matched, ranked: topRanked(candidates, score, limit), score, total: order.length }
}
