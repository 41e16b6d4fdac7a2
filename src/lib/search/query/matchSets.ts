/**
 * Sets of matching documents with their scores, combined as MiniSearch 7's AND and OR
 * combinators combine its result maps (see minisearchScoring.ts).
 */

/** Scores per document (short id) and the order MiniSearch's result map would have. */
export interface Matches {
  order: number[]
  score: Float64Array
  has: Uint8Array
}

// why: a query allocated ~300 KB of arrays (per term and per AND step), so a young-generation
// GC (1–6 ms) hit about every 50th query, i.e. the p99; the arrays are reused instead
const freeMatches: Matches[] = []
const usedMatches: Matches[] = []
const scratchArrays = new Map<string, Float64Array>()

export function emptyMatches(size: number): Matches {
  let matches = freeMatches.pop()
  if (!matches || matches.score.length !== size) {
    matches = { order: [], score: new Float64Array(size), has: new Uint8Array(size) }
  }
  usedMatches.push(matches)
  return matches
}

/** Returns every array of the search to the pool; `has` is cleared through `order`. */
export function releaseMatches(): void {
  for (const matches of usedMatches) {
    // why: clearing a page at a time cost a 20,000-page cold start ~10 ms when a term matches
    // most pages; a native fill of the whole array is faster from an eighth of them on
    if (matches.order.length > matches.has.length / 8) matches.has.fill(0)
    else for (const shortId of matches.order) matches.has[shortId] = 0
    matches.order.length = 0
    freeMatches.push(matches)
  }
  usedMatches.length = 0
}

/** A reusable array of at least `size` numbers (contents undefined). */
export function scratch(name: string, size: number): Float64Array {
  let array = scratchArrays.get(name)
  if (!array || array.length < size) scratchArrays.set(name, (array = new Float64Array(size)))
  return array.subarray(0, size)
}

export function copyMatches(source: Matches): Matches {
  const copy = emptyMatches(source.score.length)
  copy.score.set(source.score)
  for (const shortId of source.order) {
    copy.has[shortId] = 1
    copy.order.push(shortId)
  }
  return copy
}

// why: MiniSearch's AND keeps the documents of both in the order of the second
export function andMatches(a: Matches, b: Matches): Matches {
  const combined = emptyMatches(b.score.length)
  for (const shortId of b.order) {
    if (!a.has[shortId]) continue
    combined.has[shortId] = 1
    combined.score[shortId] = a.score[shortId]! + b.score[shortId]!
    combined.order.push(shortId)
  }
  return combined
}

// why: MiniSearch's OR adds the second's new documents after the first's
export function orMatches(a: Matches, b: Matches): Matches {
  const size = Math.max(a.score.length, b.score.length)
  const combined = a.score.length === size ? a : grow(a, size)
  for (const shortId of b.order) {
    if (combined.has[shortId]) {
      combined.score[shortId] = combined.score[shortId]! + b.score[shortId]!
    } else {
      combined.has[shortId] = 1
      combined.score[shortId] = b.score[shortId]!
      combined.order.push(shortId)
    }
  }
  return combined
}

function grow(matches: Matches, size: number): Matches {
  const grown = emptyMatches(size)
  grown.score.set(matches.score)
  for (const shortId of matches.order) {
    grown.has[shortId] = 1
    grown.order.push(shortId)
  }
  return grown
}

/**
 * The first `limit` of `order` sorted by score, highest first, ties in `order`'s order (as
 * MiniSearch's stable sort of all results), without sorting all of them with a comparator.
 */
export function topRanked(order: readonly number[], score: Float64Array, limit: number): number[] {
  let candidates = order
  if (order.length > limit) {
    const scores = scratch('rank', order.length)
    for (let i = 0; i < order.length; i++) scores[i] = score[order[i]!]!
    scores.sort()
    const threshold = scores[scores.length - limit]!
    // why: a loop, not `filter`: a callback per page is slow in a cold start's interpreted code
    const above: number[] = []
    for (const shortId of order) if (score[shortId]! >= threshold) above.push(shortId)
    candidates = above
  }
  return [...candidates].sort((a, b) => score[b]! - score[a]!).slice(0, limit)
}
