import type { MatchPool, Matches } from './matchSets.js'
import { addTermBits, hasBit, isDense, positionsByBits, type PostingBits } from './postingBits.js'
import type { FieldPostings } from '../index/packedIndex.js'
import type { ScoringScratch } from './workspace.js'

/**
 * One field's postings of one index term a query term reached, with what BM25 needs for it
 * (wordTerms.ts, `termLists`).
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

/** The BM25+ parameters (MiniSearch's `bm25` search option). */
export interface Bm25 {
  k: number
  b: number
  d: number
}

/** Scores every posting of one query term's `lists` into fresh matches, in MiniSearch's order. */
export function scoreLists(
  pool: MatchPool,
  lists: readonly ScoringList[],
  size: number,
  bm25: Bm25,
): Matches {
  const matches = pool.empty(size)
  const terms = bm25Terms(bm25)
  for (const list of lists) {
    addListScores(list, null, list.postings.ids.length, terms, matches.score, matches.has, matches)
  }
  return matches
}

/** What scoring a word's lists works with (workspace.ts): its scratch and the lists' bits. */
export interface ListsWork {
  scoring: ScoringScratch
  postingBits: PostingBits | null
}

/** BM25+ parameters with the constant parts MiniSearch's formula uses. */
interface Bm25Terms extends Bm25 {
  kPlusOne: number
  oneMinusB: number
}

/**
 * The score of each of `pages` (ascending short ids, each matching the word) for a word of
 * terms, written into `into`: each term's lists scored as `scoreLists` does, the terms added
 * up as `andMatches` does, so the same doubles as the full scoring. `marks` is 1 at `pages`.
 * why: only the pages that can reach the top are scored (titleTierTop.ts)
 */
export function scorePages(
  work: ListsWork,
  termLists: readonly ScoringList[][],
  pages: Int32Array,
  marks: Uint8Array,
  bm25: Bm25,
  into: Float64Array,
): void {
  const terms = bm25Terms(bm25)
  const { scoring } = work
  scoring.fitTerms(into.length, pages.length)
  const { termScores, termSeen, found } = scoring
  const firsts = firstOfSame(termLists)
  // why: the first of terms with the same postings keeps where they hold the pages, for the rest
  const kept: Int32Array[][] = []
  for (let t = 0; t < termLists.length; t++) {
    const lists = termLists[t]!
    const first = firsts[t]!
    const keep = first === t && firsts.indexOf(t, t + 1) !== -1
    if (keep) kept[t] = []
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!
      let at = first < t ? kept[first]![l]! : found
      const count =
        at === found
          ? listedPages(work.postingBits, list.postings.ids, pages, marks, found)
          : at.length
      if (keep) kept[t]!.push((at = found.slice(0, count)))
      addListScores(list, at, count, terms, termScores, termSeen, null)
    }
    addTermScores(pages, t, into, termScores, termSeen)
  }
}

/**
 * For each term, the first term whose lists are the same postings as its own (itself when none
 * before it): the data file stores equal postings once (a word's bigrams that always occur
 * together), so such terms hold the same pages.
 * why: the pages of the same postings are looked for once (`展示会`, `ワークショップ`: half of the
 * bigrams of the bench's words at 50,000 pages)
 */
function firstOfSame(termLists: readonly ScoringList[][]): number[] {
  const firsts: number[] = []
  for (let t = 0; t < termLists.length; t++) {
    let first = 0
    while (first < t && !sameLists(termLists[first]!, termLists[t]!)) first++
    firsts.push(first)
  }
  return firsts
}

function sameLists(a: readonly ScoringList[], b: readonly ScoringList[]): boolean {
  if (a.length !== b.length) return false
  for (let l = 0; l < a.length; l++) {
    const [x, y] = [a[l]!.postings.ids, b[l]!.postings.ids]
    if (x.buffer !== y.buffer || x.byteOffset !== y.byteOffset || x.length !== y.length) {
      return false
    }
  }
  return true
}

/** Pages to score while counting (`matchAndScore`), with where their scores go. */
export interface PageScoring {
  /** Ascending short ids; 1 in `marks` at each. */
  pages: Int32Array
  marks: Uint8Array
  bm25: Bm25
  /**
   * Receives the word's score of each of `pages` that matches the word (as `scorePages`; a
   * meaningless value for the others).
   */
  into: Float64Array
}

/**
 * The pages matching every term (each term: any of its lists), in the order `scoreLists` and
 * `andMatches` would give them; null for 255 terms or more. With `scoring`, the same pass
 * scores its pages (as `scorePages`).
 * why: a single word's candidates are known before counting (the pages whose title holds it);
 * counting a frequent word's postings and then searching them again walked them twice
 */
export function matchAndScore(
  work: ListsWork & { matches: MatchPool },
  termLists: readonly ScoringList[][],
  size: number,
  scoring: PageScoring | null,
): Matches | null {
  const matches = work.matches.empty(size)
  const last = termLists.length - 1
  if (last >= 255) return null
  const scratch = work.scoring
  scratch.fitCounters(size)
  const terms = scoring && bm25Terms(scoring.bm25)
  if (scoring) scratch.fitTerms(scoring.into.length, scoring.pages.length)
  const { counters, termScores, termSeen, found } = scratch
  const { has, ids: order } = matches
  const firsts = firstOfSame(termLists)
  let count = 0
  // why: the terms counted so far; a page matching all of them is at this count in `counters`
  let counted = 0
  // why: without scoring, the terms before the last on an eighth of the pages or more are not
  // walked: the last term's pages are tested against their bits (postingBits.ts)
  const bitsOn = work.postingBits
  const dense: ScoringList[][] = []
  for (let t = 0; t <= last; t++) {
    // why: a term whose postings a later term has too (never the last) adds nothing to count
    const skipped = firsts.indexOf(firsts[t]!, t + 1) !== -1
    if (bitsOn && !scoring && !skipped && t < last && isDense(termLists[t]!, size)) {
      dense.push(termLists[t]!)
      continue
    }
    if (t === last && dense.length > 0) {
      const bits = denseBits(bitsOn!, scratch, dense, size)
      for (const { postings } of termLists[t]!) {
        const { ids } = postings
        for (let p = 0; p < ids.length; p++) {
          const shortId = ids[p]!
          if (counters[shortId] !== counted) continue
          counters[shortId] = counted + 1
          if (!hasBit(bits, shortId)) continue
          has[shortId] = 1
          order[count++] = shortId
        }
      }
      break
    }
    for (const list of termLists[t]!) {
      const { ids } = list.postings
      if (skipped) {
        if (scoring) {
          const listed = listedPages(bitsOn, ids, scoring.pages, scoring.marks, found)
          addListScores(list, found, listed, terms!, termScores, termSeen, null)
        }
        continue
      }
      // why: a loop of its own without scoring: in a cold start's interpreted code a check per
      // posting adds up over a frequent word's many postings
      if (!scoring) {
        for (let p = 0; p < ids.length; p++) {
          const shortId = ids[p]!
          if (counters[shortId] !== counted) continue
          counters[shortId] = counted + 1
          if (t === last) {
            has[shortId] = 1
            order[count++] = shortId
          }
        }
        continue
      }
      const { marks } = scoring
      let marked = 0
      for (let p = 0; p < ids.length; p++) {
        const shortId = ids[p]!
        if (marks[shortId]) found[marked++] = p
        if (counters[shortId] !== counted) continue
        counters[shortId] = counted + 1
        if (t === last) {
          has[shortId] = 1
          order[count++] = shortId
        }
      }
      addListScores(list, found, marked, terms!, termScores, termSeen, null)
    }
    if (!skipped) counted++
    if (scoring) addTermScores(scoring.pages, t, scoring.into, termScores, termSeen)
  }
  matches.count = count
  counters.fill(0, 0, size)
  return matches
}

/** The pages every one of `terms` holds (each term: any of its lists), as bits. */
function denseBits(
  postingBits: PostingBits,
  scratch: ScoringScratch,
  terms: readonly ScoringList[][],
  size: number,
): Uint32Array {
  scratch.fitBits(Math.ceil(size / 32))
  const { bits, spareBits } = scratch
  terms.forEach((lists, n) => addTermBits(postingBits, lists, size, bits, spareBits, n > 0))
  return bits
}

function bm25Terms(bm25: Bm25): Bm25Terms {
  return { ...bm25, kPlusOne: bm25.k + 1, oneMinusB: 1 - bm25.b }
}

/**
 * Adds MiniSearch's `termWeight * termBoost * fieldBoost * docBoost * rawScore` (BM25+) of the
 * postings of `list` at `positions` (the first `count`; null: every posting) to `scores`, the
 * first for a page (`seen`) setting it; with `order`, a page seen first is appended to it. The
 * constant parts of `k * (1 - b + …)` come once per query: the same operations in the same order
 * as MiniSearch, so the same doubles.
 * why: one loop per list with the formula inside; a call per posting was not inlined, and a
 * one-letter word's answer scores its many postings here
 */
function addListScores(
  list: ScoringList,
  positions: Int32Array | null,
  count: number,
  bm25: Bm25Terms,
  scores: Float64Array,
  seen: Uint8Array,
  order: Matches | null,
): void {
  const { k, b, d, kPlusOne, oneMinusB } = bm25
  const { postings, lengths, avgFieldLength, invDocFreq, weight } = list
  const { ids, frequencies } = postings
  for (let i = 0; i < count; i++) {
    const p = positions ? positions[i]! : i
    const shortId = ids[p]!
    const termFreq = frequencies[p]!
    const rawScore =
      invDocFreq *
      (d +
        (termFreq * kPlusOne) /
          (termFreq + k * (oneMinusB + (b * lengths[shortId]!) / avgFieldLength)))
    if (seen[shortId]) {
      scores[shortId] += weight * rawScore
    } else {
      seen[shortId] = 1
      scores[shortId] = weight * rawScore
      if (order) order.ids[order.count++] = shortId
    }
  }
}

// why: as `andMatches`: the word's score is its first term's, plus each next term's
function addTermScores(
  pages: Int32Array,
  t: number,
  into: Float64Array,
  termScores: Float64Array,
  termSeen: Uint8Array,
): void {
  for (let n = 0; n < pages.length; n++) {
    const shortId = pages[n]!
    const termScore = termSeen[shortId] ? termScores[shortId]! : 0
    into[shortId] = t === 0 ? termScore : into[shortId]! + termScore
    termSeen[shortId] = 0
  }
}

/**
 * Where the ascending `ids` hold any of `pages` (ascending short ids, 1 in `marks`): their
 * positions in `ids`, ascending, written to `into` (as long as `pages` at least); returns how
 * many. `postingBits`: the lists' bits when that accelerator is on.
 * why: a short list is walked (one check per posting), a long one searched page by page with
 * galloping steps from the last position found
 */
export function listedPages(
  postingBits: PostingBits | null,
  ids: Uint32Array,
  pages: Int32Array,
  marks: Uint8Array,
  into: Int32Array,
): number {
  let count = 0
  if (ids.length <= pages.length * 4) {
    for (let p = 0; p < ids.length; p++) if (marks[ids[p]!]) into[count++] = p
    return count
  }
  if (postingBits && ids.length >= BITS_FROM_POSTINGS) {
    const byBits = positionsByBits(postingBits, ids, pages, into)
    if (byBits >= 0) return byBits
  }
  let at = 0
  for (let i = 0; i < pages.length && at < ids.length; i++) {
    const shortId = pages[i]!
    at = seek(ids, at, shortId)
    if (at < ids.length && ids[at] === shortId) into[count++] = at
  }
  return count
}

// why: a list this long is searched through its bits once it has them (postingBits.ts): a
// candidate's position counted from its word, not a galloping search of ~10 unpredictable steps
const BITS_FROM_POSTINGS = 1024

/** The first position from `from` on whose id is at least `shortId` (ids ascending). */
function seek(ids: Uint32Array, from: number, shortId: number): number {
  if (ids[from]! >= shortId) return from
  // why: ids[low] < shortId holds throughout; high is past the end or at an id >= shortId
  let low = from
  let step = 1
  while (low + step < ids.length && ids[low + step]! < shortId) {
    low += step
    step *= 2
  }
  let high = Math.min(low + step, ids.length)
  while (low + 1 < high) {
    const middle = (low + high) >>> 1
    if (ids[middle]! < shortId) low = middle
    else high = middle
  }
  return high
}
