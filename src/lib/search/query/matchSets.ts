/**
 * Sets of matching documents with their scores, combined as MiniSearch 7's AND and OR
 * combinators combine its result maps (see scoring.ts).
 */

/** Scores per document (short id) and the order MiniSearch's result map would have. */
export interface Matches {
  /** The matching short ids in that order: the first `count` of `ids` (as long as `has`). */
  ids: Int32Array
  count: number
  score: Float64Array
  has: Uint8Array
}

/** Short ids in some order: an array or a typed array. */
export type ShortIds = ArrayLike<number> & Iterable<number>

/** Names of the pool's reusable arrays of numbers (see `MatchPool.scratch`). */
export type ScratchName = 'final' | 'tier' | 'word' | 'heap'

/**
 * The matches and number arrays of one site search's answers, reused from answer to answer
 * (workspace.ts): what an answer takes is handed back by `release` when it ends.
 * why: a query allocated ~300 KB of arrays (per term and per AND step), so a young-generation
 * GC hit about every 50th query, i.e. the p99; the arrays are reused instead, the order too (a
 * growing plain array of the short ids of a frequent word was a quarter MB per query)
 */
export class MatchPool {
  readonly #free: Matches[] = []
  readonly #used: Matches[] = []
  readonly #scratch = new Map<ScratchName, Float64Array>()

  /** Matches of no page, in arrays of `size` (by short id), until `release`. */
  empty(size: number): Matches {
    let matches = this.#free.pop()
    if (!matches || matches.score.length !== size) {
      matches = {
        ids: new Int32Array(size),
        count: 0,
        score: new Float64Array(size),
        has: new Uint8Array(size),
      }
    }
    this.#used.push(matches)
    return matches
  }

  /** Takes back every matches handed out; `has` is cleared through the order. */
  release(): void {
    for (const matches of this.#used) {
      // why: clearing a page at a time is slower than a native fill of the whole array once a
      // term matches an eighth of the pages or more (a frequent word on a large site)
      if (matches.count > matches.has.length / 8) matches.has.fill(0)
      else for (let i = 0; i < matches.count; i++) matches.has[matches.ids[i]!] = 0
      matches.count = 0
      this.#free.push(matches)
    }
    this.#used.length = 0
  }

  /** The array `name` of at least `size` numbers (contents undefined), kept between answers. */
  scratch(name: ScratchName, size: number): Float64Array {
    let array = this.#scratch.get(name)
    if (!array || array.length < size) this.#scratch.set(name, (array = new Float64Array(size)))
    return array.subarray(0, size)
  }
}

/** The short ids of `matches` in their order (a view, valid until the pool's release). */
export function orderOf(matches: Matches): Int32Array {
  return matches.ids.subarray(0, matches.count)
}

/** A copy of `source` in arrays of `size` (default its own). */
export function copyMatches(pool: MatchPool, source: Matches, size = source.score.length): Matches {
  const copy = pool.empty(size)
  copy.score.set(source.score)
  for (let i = 0; i < source.count; i++) {
    const shortId = source.ids[i]!
    copy.has[shortId] = 1
    copy.ids[copy.count++] = shortId
  }
  return copy
}

// why: MiniSearch's AND keeps the documents of both in the order of the second
export function andMatches(pool: MatchPool, a: Matches, b: Matches): Matches {
  const combined = pool.empty(b.score.length)
  for (let i = 0; i < b.count; i++) {
    const shortId = b.ids[i]!
    if (!a.has[shortId]) continue
    combined.has[shortId] = 1
    combined.score[shortId] = a.score[shortId]! + b.score[shortId]!
    combined.ids[combined.count++] = shortId
  }
  return combined
}

// why: MiniSearch's OR adds the second's new documents after the first's
export function orMatches(pool: MatchPool, a: Matches, b: Matches): Matches {
  const size = Math.max(a.score.length, b.score.length)
  const combined = a.score.length === size ? a : copyMatches(pool, a, size)
  for (let i = 0; i < b.count; i++) {
    const shortId = b.ids[i]!
    if (combined.has[shortId]) {
      combined.score[shortId] = combined.score[shortId]! + b.score[shortId]!
    } else {
      combined.has[shortId] = 1
      combined.score[shortId] = b.score[shortId]!
      combined.ids[combined.count++] = shortId
    }
  }
  return combined
}

/** A query word's matches and its terms, as the quality factor reads them. */
export interface MatchedWord {
  has: Uint8Array
  sourceTerms: readonly string[]
}

/**
 * MiniSearch's quality factor of a page: the number of distinct query terms of the words it
 * matched (at least 1).
 * why: counted once per pattern of matched words, not per page; collecting the terms for each
 * matching page was a large part of a two-word query's cold start
 */
export function qualityFactor(words: readonly MatchedWord[]): (shortId: number) => number {
  if (words.length === 1) {
    const count = words[0]!.sourceTerms.length || 1
    return () => count
  }
  const counts = new Map<number | string, number>()
  // why: a number as the pattern's key while it fits in 31 bits (a string made per page was
  // slow); a query of 200 characters can hold 100 words
  const patternOf =
    words.length <= 31
      ? (shortId: number): number | string => {
          let pattern = 0
          for (let w = 0; w < words.length; w++) pattern |= words[w]!.has[shortId]! << w
          return pattern
        }
      : (shortId: number): number | string => {
          let pattern = ''
          for (const word of words) pattern += word.has[shortId] ? '1' : '0'
          return pattern
        }
  return (shortId) => {
    const pattern = patternOf(shortId)
    let count = counts.get(pattern)
    if (count === undefined) {
      const terms = new Set<string>()
      for (const word of words) {
        if (word.has[shortId]) for (const term of word.sourceTerms) terms.add(term)
      }
      count = terms.size || 1
      counts.set(pattern, count)
    }
    return count
  }
}

/**
 * The first `limit` of `order` sorted by score, highest first, ties in `order`'s order (as
 * MiniSearch's stable sort of all results), without sorting all of them with a comparator.
 */
export function topRanked(
  pool: MatchPool,
  order: ShortIds,
  score: Float64Array,
  limit: number,
): number[] {
  let candidates: ShortIds = order
  if (order.length > limit) {
    const threshold = largestAt(pool, order, score, limit)
    // why: a loop, not `filter`: a callback per page is slow in a cold start's interpreted code
    const above: number[] = []
    for (let n = 0; n < order.length; n++) {
      const shortId = order[n]!
      if (score[shortId]! >= threshold) above.push(shortId)
    }
    candidates = above
  }
  return [...candidates].sort((a, b) => score[b]! - score[a]!).slice(0, limit)
}

/**
 * The `rank`-th largest of `values` at the positions `order` (1: the largest); `order` holds
 * at least `rank` positions.
 * why: a min-heap of the `rank` largest seen; sorting a typed array of every matching page's
 * value was a large part of a query on a frequent word of a big site
 */
export function largestAt(
  pool: MatchPool,
  order: ShortIds,
  values: Float64Array,
  rank: number,
): number {
  const heap = pool.scratch('heap', rank)
  let size = 0
  for (let n = 0; n < order.length; n++) {
    const position = order[n]!
    const value = values[position]!
    if (size < rank) {
      let child = size++
      while (child > 0) {
        const parent = (child - 1) >>> 1
        if (heap[parent]! <= value) break
        heap[child] = heap[parent]!
        child = parent
      }
      heap[child] = value
    } else if (value > heap[0]!) {
      siftDown(heap, size, value)
    }
  }
  return heap[0]!
}

// why: puts `value` in place of the heap's smallest and restores the heap below it
function siftDown(heap: Float64Array, size: number, value: number): void {
  let parent = 0
  for (;;) {
    let child = 2 * parent + 1
    if (child >= size) break
    if (child + 1 < size && heap[child + 1]! < heap[child]!) child++
    if (heap[child]! >= value) break
    heap[parent] = heap[child]!
    parent = child
  }
  heap[parent] = value
}
