import { emptyMatches, type Matches } from './matchSets.js'
import type { FieldPostings } from '../index/packedIndex.js'

/**
 * One field's postings of one index term a query term reached, with what MiniSearch's BM25
 * needs for it (see minisearchScoring.ts, `matchTerm`).
 */
export interface ScoringList {
  postings: FieldPostings
  /** The field's length by short id. */
  lengths: Float64Array
  avgFieldLength: number
  invDocFreq: number
  /** `termWeight * termBoost * fieldBoost * docBoost`. */
  weight: number
}

/** MiniSearch's BM25+ parameters. */
export interface Bm25 {
  k: number
  b: number
  d: number
}

/**
 * Scores every posting of one query term's `lists` into fresh matches, in MiniSearch's order.
 * why: `termWeight * termBoost * fieldBoost * docBoost * rawScore` and `k * (1 - b + …)` with
 * the constant parts computed once per field (same operations in the same order, so the same
 * doubles): in a cold start's interpreted code every double operation allocates, and a
 * frequent term runs this for most pages
 */
export function scoreLists(lists: readonly ScoringList[], size: number, bm25: Bm25): Matches {
  const matches = emptyMatches(size)
  const { k, b, d } = bm25
  const kPlusOne = k + 1
  const oneMinusB = 1 - b
  const { score, has, order } = matches
  for (const { postings, lengths, avgFieldLength, invDocFreq, weight } of lists) {
    const { ids, frequencies } = postings
    for (let p = 0; p < ids.length; p++) {
      const shortId = ids[p]!
      const termFreq = frequencies[p]!
      const rawScore =
        invDocFreq *
        (d +
          (termFreq * kPlusOne) /
            (termFreq + k * (oneMinusB + (b * lengths[shortId]!) / avgFieldLength)))
      if (has[shortId]) {
        score[shortId] += weight * rawScore
      } else {
        has[shortId] = 1
        score[shortId] = weight * rawScore
        order.push(shortId)
      }
    }
  }
  return matches
}

let counters = new Uint8Array(0)

/**
 * The pages matching every term (each term: any of its lists), in the order `scoreLists` and
 * `andMatches` would give them, without scores; null for 255 terms or more.
 */
export function matchAll(termLists: readonly ScoringList[][], size: number): Matches | null {
  const matches = emptyMatches(size)
  const last = termLists.length - 1
  if (last >= 255) return null
  if (counters.length < size) counters = new Uint8Array(size)
  const { has, order } = matches
  for (let t = 0; t <= last; t++) {
    for (const { postings } of termLists[t]!) {
      const { ids } = postings
      for (let p = 0; p < ids.length; p++) {
        const shortId = ids[p]!
        if (counters[shortId] !== t) continue
        counters[shortId] = t + 1
        if (t === last) {
          has[shortId] = 1
          order.push(shortId)
        }
      }
    }
  }
  counters.fill(0, 0, size)
  return matches
}

/**
 * One page's score for a word of terms: each term's lists scored as `scoreLists` does, the
 * terms added up as `andMatches` does, so the same double as the full scoring.
 */
export function pageScore(
  termLists: readonly ScoringList[][],
  shortId: number,
  bm25: Bm25,
): number {
  const { k, b, d } = bm25
  const kPlusOne = k + 1
  const oneMinusB = 1 - b
  let wordScore = 0
  for (let t = 0; t < termLists.length; t++) {
    let termScore = 0
    let seen = false
    for (const { postings, lengths, avgFieldLength, invDocFreq, weight } of termLists[t]!) {
      const p = positionOf(postings.ids, shortId)
      if (p < 0) continue
      const termFreq = postings.frequencies[p]!
      const rawScore =
        invDocFreq *
        (d +
          (termFreq * kPlusOne) /
            (termFreq + k * (oneMinusB + (b * lengths[shortId]!) / avgFieldLength)))
      if (seen) termScore += weight * rawScore
      else termScore = weight * rawScore
      seen = true
    }
    wordScore = t === 0 ? termScore : wordScore + termScore
  }
  return wordScore
}

/** Where ascending `ids` hold `shortId` (binary search), or -1. */
export function positionOf(ids: ArrayLike<number>, shortId: number): number {
  let low = 0
  let high = ids.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const id = ids[middle]!
    if (id === shortId) return middle
    if (id < shortId) low = middle + 1
    else high = middle - 1
  }
  return -1
}
