import type { TermData } from '../index/packedIndex.js'
import type { ShortIds } from './matchSets.js'
import type { TitleDistanceScratch } from './workspace.js'

/*
 * Our re-ranking after the BM25 scoring (docs/search.md, "Decision: title-first ranking").
 * A page's rank is decided first by how many query words it matches, then by how many it
 * matches in its title with un-fuzzed terms (exact or prefix), then within one edit, then in
 * its title at all (fuzzy included), and only then by the BM25 score.
 * why: BM25 adds up every field, so a page repeating one query word many times in its body,
 * or holding a fuzzy neighbour of it in its title, outranked the page whose title holds every
 * query word; measured on the labelled corpus of bench/bench-search-ranking.ts
 */

/** A term of the index a query term reached: itself, a prefix expansion or a fuzzy one. */
export interface TermExpansion {
  data: TermData
  /** The position of the query term (within its word) it was expanded from. */
  termIndex: number
  /** Its edit distance from the query term: 0 for the term itself and prefix expansions. */
  distance: number
}

const UNREACHED = 255

/**
 * The pages (short ids) whose title holds every one of a word's terms, in the order found, and
 * how far the word is from each title: the largest, over its terms, of the smallest distance
 * at which the term reached the title (0: every term un-fuzzed, exact or prefix).
 */
export interface TitleDistances {
  shortIds: Int32Array
  /** By position in `shortIds`. */
  distances: Uint8Array
}

/**
 * The word's `TitleDistances` from its terms' `expansions` (`termCount` terms). `size`: one
 * more than the largest short id.
 * why: the workspace's typed arrays by short id, not a Map per query term: a one-letter word
 * reaches thousands of titles through its prefix expansions
 */
export function titleDistances(
  scratch: TitleDistanceScratch,
  expansions: readonly TermExpansion[],
  termCount: number,
  titleFieldId: number | undefined,
  size: number,
): TitleDistances {
  if (titleFieldId === undefined || termCount === 0) {
    return { shortIds: new Int32Array(0), distances: new Uint8Array(0) }
  }
  scratch.fit(size, UNREACHED)
  const { nearest, reached, farthest, holders, touched } = scratch
  let holderCount = 0
  const counts = termCounts(expansions, termCount, titleFieldId)
  for (let termIndex = 0; termIndex < termCount; termIndex++) {
    const times = counts[termIndex]!
    if (times === 0) continue
    let touchedCount = 0
    for (const expansion of expansions) {
      if (expansion.termIndex !== termIndex) continue
      const postings = expansion.data[titleFieldId]
      if (!postings) continue
      const distance = Math.min(expansion.distance, UNREACHED - 1)
      for (let n = 0; n < postings.ids.length; n++) {
        const shortId = postings.ids[n]!
        const known = nearest[shortId]!
        if (known === UNREACHED) touched[touchedCount++] = shortId
        if (distance < known) nearest[shortId] = distance
      }
    }
    for (let i = 0; i < touchedCount; i++) {
      const shortId = touched[i]!
      if (reached[shortId] === 0) holders[holderCount++] = shortId
      reached[shortId] = reached[shortId]! + times
      farthest[shortId] = Math.max(farthest[shortId]!, nearest[shortId]!)
      nearest[shortId] = UNREACHED
    }
  }
  let count = 0
  for (let i = 0; i < holderCount; i++) if (reached[holders[i]!] === termCount) count++
  const found: TitleDistances = {
    shortIds: new Int32Array(count),
    distances: new Uint8Array(count),
  }
  count = 0
  for (let i = 0; i < holderCount; i++) {
    const shortId = holders[i]!
    if (reached[shortId] === termCount) {
      found.shortIds[count] = shortId
      found.distances[count++] = farthest[shortId]!
    }
    reached[shortId] = 0
    farthest[shortId] = 0
  }
  return found
}

/**
 * For each of a word's terms, how many of its terms reach the titles as it does (the same title
 * postings at the same distances), counted at the first of them; 0 at the others.
 * why: the data file stores equal postings once (a word's bigrams that always occur together,
 * `ワー`, `ーク`, `クシ` of `ワークショップ`): such terms give every title the same distance, so their
 * title postings are walked once
 */
function termCounts(
  expansions: readonly TermExpansion[],
  termCount: number,
  titleFieldId: number,
): number[] {
  const titles: TermExpansion[][] = Array.from({ length: termCount }, () => [])
  for (const expansion of expansions) titles[expansion.termIndex]?.push(expansion)
  const counts: number[] = []
  for (let t = 0; t < termCount; t++) {
    let first = 0
    while (first < t && !sameTitles(titles[first]!, titles[t]!, titleFieldId)) first++
    counts.push(first === t ? 1 : 0)
    if (first < t) counts[first]!++
  }
  return counts
}

function sameTitles(a: TermExpansion[], b: TermExpansion[], titleFieldId: number): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!]
    if (x.distance !== y.distance) return false
    const [p, q] = [x.data[titleFieldId]?.ids, y.data[titleFieldId]?.ids]
    if (p === q) continue
    if (!p || !q || p.buffer !== q.buffer || p.byteOffset !== q.byteOffset) return false
    if (p.length !== q.length) return false
  }
  return true
}

/** A query word's matches as re-ranking reads them. */
export interface RankedWord {
  /** 1 for each page (short id) matching the word. */
  has: Uint8Array
  titleDistances: TitleDistances
}

/** The tier of a page matching `matched` of `wordCount` words, before its title counts. */
export function matchedWordsTier(matched: number, wordCount: number): number {
  const base = wordCount + 1
  return matched * base * base * base
}

/**
 * The tier (the whole part of the title-first score) of each page of `order`, written into
 * `tier`: words matched, then title words matched exactly, within one typo, at all. `members`:
 * 1 for each page of `order`, when `order` leaves out pages matching a word.
 */
export function writeTitleTiers(
  words: readonly RankedWord[],
  order: ShortIds,
  tier: Float64Array,
  members?: Uint8Array,
): Float64Array {
  const base = words.length + 1
  // why: this loop runs over every matching page on a cold start, before V8 optimises it:
  // indexes and a constant instead of an iterator and a call per page (the same integers)
  const has = words.map((word) => word.has)
  const perWord = matchedWordsTier(1, words.length)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    let matched = 0
    for (let w = 0; w < has.length; w++) matched += has[w]![shortId]!
    tier[shortId] = matched * perWord
  }
  for (const word of words) {
    const { shortIds, distances } = word.titleDistances
    for (let i = 0; i < shortIds.length; i++) {
      const shortId = shortIds[i]!
      const distance = distances[i]!
      if (word.has[shortId] && (!members || members[shortId])) {
        tier[shortId] += titleBonus(distance, base)
      }
    }
  }
  return tier
}

// why: the tier's digits in base `words + 1`: title holds the word un-fuzzed, within one edit, at all
function titleBonus(distance: number, base: number): number {
  return (distance === 0 ? base * base : 0) + (distance <= 1 ? base : 0) + 1
}

/**
 * Replaces the score of each page of `order` by its title-first score: the tier as the whole
 * part, compared in this order: query words matched, words the title holds un-fuzzed (distance
 * 0), within one edit, at all; the BM25 score `s` squeezed into the fraction (s / (1 + s)
 * keeps its order), so results stay sorted by score (§4.11). `tier` is scratch space as long
 * as `score`.
 * why: two passes over typed arrays, as the pages holding a word in their title are few; an
 * object per matching page was a large part of a cold start on a big site
 */
export function rerankTitleFirst(
  words: readonly RankedWord[],
  order: ShortIds,
  score: Float64Array,
  tier: Float64Array,
): void {
  writeTitleTiers(words, order, tier)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    const s = score[shortId]!
    score[shortId] = tier[shortId]! + s / (1 + s)
  }
}
