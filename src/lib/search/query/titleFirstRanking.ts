import type { TermData } from '../index/packedIndex.js'

/*
 * Our re-ranking after MiniSearch's scoring (docs/search.md, "Decision: title-first ranking").
 * A page's rank is decided first by how many query words it matches, then by how many it
 * matches in its title with un-fuzzed terms (exact or prefix), then within one edit, then in
 * its title at all (fuzzy included), and only then by MiniSearch's score.
 * why: BM25 adds up every field, so a page repeating one query word many times in its body,
 * or holding a fuzzy neighbour of it in its title, outranked the page whose title holds every
 * query word; measured on the labelled corpus of scripts/bench-search-ranking.ts
 */

/** A term of the index a query term reached: itself, a prefix expansion or a fuzzy one. */
export interface TermExpansion {
  data: TermData
  /** The position of the query term (within its word) it was expanded from. */
  termIndex: number
  /** Its edit distance from the query term: 0 for the term itself and prefix expansions. */
  distance: number
}

/**
 * Per page (short id) whose title holds every one of a word's `termCount` terms, how far the
 * word is from the title: the largest, over its terms, of the smallest distance at which the
 * term reached the title (0: every term un-fuzzed, exact or prefix). Pages missing from the map
 * do not hold the word in their title.
 */
export function titleDistances(
  expansions: readonly TermExpansion[],
  termCount: number,
  titleFieldId: number | undefined,
): Map<number, number> {
  const distances = new Map<number, number>()
  if (titleFieldId === undefined || termCount === 0) return distances
  const reached = new Map<number, number>()
  for (let termIndex = 0; termIndex < termCount; termIndex++) {
    const nearest = new Map<number, number>()
    for (const expansion of expansions) {
      if (expansion.termIndex !== termIndex) continue
      const postings = expansion.data[titleFieldId]
      if (!postings) continue
      for (const shortId of postings.ids) {
        const known = nearest.get(shortId)
        if (known === undefined || expansion.distance < known) {
          nearest.set(shortId, expansion.distance)
        }
      }
    }
    for (const [shortId, distance] of nearest) {
      reached.set(shortId, (reached.get(shortId) ?? 0) + 1)
      distances.set(shortId, Math.max(distances.get(shortId) ?? 0, distance))
    }
  }
  for (const [shortId, count] of reached) if (count < termCount) distances.delete(shortId)
  return distances
}

/** A query word's matches as re-ranking reads them. */
export interface RankedWord {
  /** 1 for each page (short id) matching the word. */
  has: Uint8Array
  /** See `titleDistances`. */
  titleDistances: Map<number, number>
}

/**
 * The tier (the whole part of the title-first score) of each page of `order`, written into
 * `tier`: words matched, then title words matched exactly, within one typo, at all.
 */
export function writeTitleTiers(
  words: readonly RankedWord[],
  order: readonly number[],
  tier: Float64Array,
): Float64Array {
  const base = words.length + 1
  for (const shortId of order) {
    let matched = 0
    for (const word of words) matched += word.has[shortId]!
    tier[shortId] = matched * base * base * base
  }
  for (const word of words) {
    for (const [shortId, distance] of word.titleDistances) {
      if (!word.has[shortId]) continue
      tier[shortId] += (distance === 0 ? base * base : 0) + (distance <= 1 ? base : 0) + 1
    }
  }
  return tier
}

/**
 * Replaces the score of each page of `order` by its title-first score: the tier as the whole
 * part, compared in this order: query words matched, words the title holds un-fuzzed (distance
 * 0), within one edit, at all; MiniSearch's score `s` squeezed into the fraction (s / (1 + s)
 * keeps its order), so results stay sorted by score (§4.11). `tier` is scratch space as long
 * as `score`.
 * why: two passes over typed arrays, as the pages holding a word in their title are few; one
 * object per page made this a third of a 20,000-page cold start
 */
export function rerankTitleFirst(
  words: readonly RankedWord[],
  order: readonly number[],
  score: Float64Array,
  tier: Float64Array,
): void {
  writeTitleTiers(words, order, tier)
  for (const shortId of order) {
    const s = score[shortId]!
    score[shortId] = tier[shortId]! + s / (1 + s)
  }
}
