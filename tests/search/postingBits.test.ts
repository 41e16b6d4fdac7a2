import { describe, expect, it } from 'vitest'
import { PostingBits, positionsByBits } from '../../src/lib/search/query/postingBits.js'
import { listedPages } from '../../src/lib/search/query/scoringLists.js'

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** `count` distinct ascending short ids below `size`, drawn with `next`. */
function ascendingIds(next: () => number, size: number, count: number): number[] {
  const ids = new Set<number>()
  while (ids.size < count) ids.add(Math.floor(next() * size))
  return [...ids].sort((a, b) => a - b)
}

/** Where each of `pages` is in `ids`, found one by one: what any search must give. */
function positionsOf(ids: readonly number[], pages: readonly number[]): number[] {
  return pages.map((page) => ids.indexOf(page)).filter((at) => at !== -1)
}

describe('positions of pages in a long postings list', () => {
  it('are counted from its bits as they are searched, once the list has its bits', () => {
    const next = random(21)
    const bits = new PostingBits()
    for (let round = 0; round < 40; round++) {
      const size = 2000 + Math.floor(next() * 60000)
      const ids = ascendingIds(next, size, 1024 + Math.floor(next() * 4000))
      // why: every 32nd id ends a word of bits (the sign bit of an int32)
      if (round === 0)
        ids.splice(0, ids.length, ...Array.from({ length: 1500 }, (_, i) => i * 32 + 31))
      const pages = ascendingIds(next, size + 64, 1 + Math.floor(next() * 200))
      const list = Uint32Array.from(ids)
      const into = new Int32Array(pages.length)
      const expected = positionsOf(ids, pages)
      // why: the first search of a list only counts (a cold start makes no bits)
      expect(positionsByBits(bits, list, Int32Array.from(pages), into)).toBe(-1)
      const found = positionsByBits(bits, list, Int32Array.from(pages), into)
      expect([...into.subarray(0, found)], `round ${round}`).toEqual(expected)
    }
  })

  it('are what listedPages gives, by bits or by searching, and without bits at all', () => {
    const next = random(24)
    const bits = new PostingBits()
    for (let round = 0; round < 20; round++) {
      const size = 50_000
      const ids = Uint32Array.from(ascendingIds(next, size, 2000 + round * 500))
      const pages = Int32Array.from(ascendingIds(next, size, 50 + round * 10))
      const marks = new Uint8Array(size)
      for (const page of pages) marks[page] = 1
      const expected = positionsOf([...ids], [...pages])
      for (let search = 0; search < 3; search++) {
        for (const withBits of [bits, null]) {
          const into = new Int32Array(pages.length)
          const count = listedPages(withBits, ids, pages, marks, into)
          expect([...into.subarray(0, count)], `round ${round}, search ${search}`).toEqual(expected)
        }
      }
    }
  })
})
