import type { FieldPostings } from '../index/packedIndex.js'

/*
 * An accelerator (workspace.ts, `Accelerators.postingBits`): long postings lists as bitsets (one
 * bit per page, by short id) with a count per word, kept for the instance's life as the decoded
 * postings are (searchDataReader.ts). The AND of a word's terms tests a term on an eighth of the
 * pages or more bit by bit at the pages its last term reaches instead of walking it
 * (scoringLists.ts, `matchAndScore`), and a candidate's position in a long list is counted from
 * the bits instead of searched (`listedPages`). Without it the lists are walked and searched:
 * the same pages, positions and scores.
 * why: on a large site the slowest answers walked every posting of a word on most pages and
 * searched each candidate in every long list; Lucene keeps dense postings as bitsets too
 */

/** A term reaching at least this share of the pages is tested by bits (1 / DENSE_SHARE). */
export const DENSE_SHARE = 8

/** A term's lists, as `ScoringList`s carry them. */
type Lists = readonly { postings: FieldPostings }[]

/** A list's pages as bits, and how many of its pages lie before each word of them. */
interface ListBits {
  bits: Uint32Array
  before: Uint32Array
}

// why: a list searched this many times gets its bits (a cold start's first answer makes none)
const SEARCHES_BEFORE_BITS = 2
// why: a list's bits take a bit per page of the site; this many lists' bits stay small
const MAX_KEPT = 512

/** The bits of one site search's long lists (workspace.ts), made as they are searched. */
export class PostingBits {
  /** By the postings' buffer, then their offset: the list's bits, or how often it was searched. */
  readonly #kept = new WeakMap<ArrayBufferLike, Map<number, ListBits | number>>()
  #keptCount = 0

  /** The bits of a long list, made now when `now`, else at its SEARCHES_BEFORE_BITS-th search. */
  of(ids: Uint32Array, now: boolean): ListBits | null {
    let byOffset = this.#kept.get(ids.buffer)
    const known = byOffset?.get(ids.byteOffset)
    if (typeof known === 'object') return known
    const searches = (known ?? 0) + 1
    if (!now && searches < SEARCHES_BEFORE_BITS) {
      if (!byOffset) this.#kept.set(ids.buffer, (byOffset = new Map()))
      byOffset.set(ids.byteOffset, searches)
      return null
    }
    const list = listBits(ids)
    if (this.#keptCount < MAX_KEPT) {
      if (!byOffset) this.#kept.set(ids.buffer, (byOffset = new Map()))
      byOffset.set(ids.byteOffset, list)
      this.#keptCount++
    }
    return list
  }
}

/** Whether a term of `lists` is tested by bits on a site of `size` pages. */
export function isDense(lists: Lists, size: number): boolean {
  let postings = 0
  for (const list of lists) postings += list.postings.ids.length
  return postings * DENSE_SHARE >= size
}

/**
 * Writes into `into` (ceil(size / 32) words) the pages any of `lists` holds, ANDed with what
 * `into` holds when `and` (else replacing it); `spare` is scratch of the same length.
 */
export function addTermBits(
  bits: PostingBits,
  lists: Lists,
  size: number,
  into: Uint32Array,
  spare: Uint32Array,
  and: boolean,
): void {
  const target = and ? spare : into
  target.fill(0)
  for (const { postings } of lists) {
    const { ids } = postings
    if (ids.length * DENSE_SHARE >= size) {
      const list = bits.of(ids, true)!.bits
      for (let w = 0; w < list.length; w++) target[w]! |= list[w]!
    } else {
      for (let p = 0; p < ids.length; p++) target[ids[p]! >>> 5]! |= 1 << (ids[p]! & 31)
    }
  }
  if (and) for (let w = 0; w < into.length; w++) into[w]! &= spare[w]!
}

/** Whether `bits` holds page `shortId`. */
export function hasBit(bits: Uint32Array, shortId: number): boolean {
  return (bits[shortId >>> 5]! & (1 << (shortId & 31))) !== 0
}

/**
 * Where the ascending `ids` hold any of `pages` (ascending), from the list's bits: positions
 * written to `into`, their count returned; -1 when the list has no bits yet (it gets them at its
 * SEARCHES_BEFORE_BITS-th search).
 */
export function positionsByBits(
  postingBits: PostingBits,
  ids: Uint32Array,
  pages: Int32Array,
  into: Int32Array,
): number {
  const list = postingBits.of(ids, false)
  if (!list) return -1
  const { bits, before } = list
  let count = 0
  for (let i = 0; i < pages.length; i++) {
    const shortId = pages[i]!
    const w = shortId >>> 5
    if (w >= bits.length) break
    const word = bits[w]!
    const bit = 1 << (shortId & 31)
    if ((word & bit) === 0) continue
    into[count++] = before[w]! + bitCount(word & (bit - 1))
  }
  return count
}

/** A list's bits, and the count of its pages before each word of them. */
function listBits(ids: Uint32Array): ListBits {
  const words = ids.length === 0 ? 0 : (ids[ids.length - 1]! >>> 5) + 1
  const bits = new Uint32Array(words)
  for (let p = 0; p < ids.length; p++) bits[ids[p]! >>> 5]! |= 1 << (ids[p]! & 31)
  const before = new Uint32Array(words)
  for (let w = 1; w < words; w++) before[w] = before[w - 1]! + bitCount(bits[w - 1]!)
  return { bits, before }
}

/** The number of bits set in a 32-bit word. */
function bitCount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555)
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}
