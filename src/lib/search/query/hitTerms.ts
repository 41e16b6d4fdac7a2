import type { TermData } from '../index/packedIndex.js'
import type { PostingBits } from './postingBits.js'
import { listedPages } from './scoringLists.js'
import type { HitTermScratch } from './workspace.js'

/** Which matched index terms a hit lists in `terms`. */
export type TermFilter = (term: string) => boolean

/** An index term a query term reached, with its postings and the fields searched. */
export interface ExpandedTerm {
  data: TermData
  term: string
  fieldIds: number[]
}

/** A query word's matching pages and the index terms its terms reached. */
export interface TermsOfWord {
  has: Uint8Array
  expansions: readonly ExpandedTerm[]
}

/**
 * A text of this many distinct terms or more is long (~1,000 characters): hits tell whether
 * their matched terms are in it (`inText`); shorter texts count as holding them.
 */
export const LONG_TEXT_TERMS = 500

/** The parts of the workspace `matchedTerms` works with (workspace.ts). */
export interface HitTermsWork {
  hitTerms: HitTermScratch
  postingBits: PostingBits | null
}

/** The terms each hit lists, and whether any index term it matched is in its text. */
export interface HitMatches {
  /** Per ranked page, the index terms it matched (those `listsTerm` accepts). */
  terms: string[][]
  /**
   * Per ranked page, 0 when its text is long (LONG_TEXT_TERMS) and none of its matched index
   * terms occurs in it, else 1.
   */
  inText: Uint8Array
}

/**
 * Per page of `ranked`, the index terms it matched (those `listsTerm` accepts), as MiniSearch
 * lists them: the keys of an object set in the order of the words it matched and their
 * expansions; and, given the text field's id, whether some matched term is in its text.
 * why: list by list (`listedPages`), not a binary search per page in every list: a one-letter
 * word reaches 200 lists through its prefix expansions
 */
export function matchedTerms(
  work: HitTermsWork,
  ranked: readonly number[],
  words: readonly TermsOfWord[],
  size: number,
  listsTerm: TermFilter,
  text?: { fieldId: number; lengths: Float64Array },
): HitMatches {
  work.hitTerms.fit(size)
  const { hits: hitMarks, text: textMarks } = work.hitTerms
  const bits = work.postingBits
  const matches = ranked.map((): Record<string, true> => ({}))
  const rankOf = new Map(ranked.map((shortId, i) => [shortId, i]))
  const found = new Int32Array(ranked.length)
  const inList = new Uint8Array(ranked.length)
  const listed = new Int32Array(ranked.length)
  const inText = new Uint8Array(ranked.length)
  let unknown = 0
  // why: scanning a short text for its first match costs less than this pass over the text's
  // lists; only long texts are worth it
  for (let i = 0; i < ranked.length; i++) {
    if (text && text.lengths[ranked[i]!]! >= LONG_TEXT_TERMS) unknown++
    else inText[i] = 1
  }
  let textFieldId = unknown > 0 ? text!.fieldId : undefined
  for (const word of words) {
    const pages = Int32Array.from(ranked.filter((shortId) => word.has[shortId])).sort()
    for (const shortId of pages) hitMarks[shortId] = 1
    // why: the word's pages not yet known to hold a matched term in their text
    let pending = pages.filter((shortId) => !inText[rankOf.get(shortId)!])
    for (const shortId of pending) textMarks[shortId] = 1
    // why: a term reached from several of the word's term slots (`nasomori` beside each of its
    // parts) is listed once; a second look finds nothing more
    const seen = new Set<string>()
    for (const { data, term, fieldIds } of word.expansions) {
      if (seen.has(term)) continue
      seen.add(term)
      if (pending.length > 0 && fieldIds.includes(textFieldId!) && data[textFieldId!]) {
        const { ids } = data[textFieldId!]!
        const count = listedPages(bits, ids, pending, textMarks, found)
        for (let i = 0; i < count; i++) {
          const shortId = ids[found[i]!]!
          textMarks[shortId] = 0
          inText[rankOf.get(shortId)!] = 1
          unknown--
        }
        if (count > 0) pending = pending.filter((shortId) => textMarks[shortId])
      }
      if (!listsTerm(term)) continue
      let listedCount = 0
      for (const fieldId of fieldIds) {
        const postings = data[fieldId]
        if (!postings) continue
        const count = listedPages(bits, postings.ids, pages, hitMarks, found)
        for (let i = 0; i < count; i++) {
          const rank = rankOf.get(postings.ids[found[i]!]!)!
          if (inList[rank]) continue
          inList[rank] = 1
          listed[listedCount++] = rank
        }
      }
      // why: only the hits holding the term (of up to 50, for each of hundreds of fuzzy terms)
      for (let i = 0; i < listedCount; i++) {
        matches[listed[i]!]![term] = true
        inList[listed[i]!] = 0
      }
    }
    for (const shortId of pages) hitMarks[shortId] = 0
    for (const shortId of pending) textMarks[shortId] = 0
    if (unknown === 0) textFieldId = undefined
  }
  return { terms: matches.map((match) => Object.keys(match)), inText }
}
