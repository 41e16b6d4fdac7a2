import type { AsPlainObject } from 'minisearch'
import type { TermTreeArrays } from './termTree.js'

/** MiniSearch's JSON without terms, documents and stored fields: counts, field ids. */
export type IndexCommon = Omit<
  AsPlainObject,
  'index' | 'documentIds' | 'fieldLength' | 'storedFields'
>

/**
 * A built MiniSearch index as flat arrays (written by build/searchDataWriter.ts): the term tree
 * (termTree.ts), every term's postings, the documents' field lengths; the form the search data
 * file stores and the search reads without parsing.
 */
export interface PackedIndexParts {
  common: IndexCommon
  /**
   * Page id by short id (0 to `common.nextId` − 1); null where MiniSearch has no document.
   * why: a function, not an array: parsing every id of a large site at a cold start, and the
   * garbage of it, weighed on the first answer; a search needs only its hits' ids
   */
  documentId(shortId: number): string | null
  /** Field f's length (unique terms) of short id s at f × `common.nextId` + s; NaN if none. */
  fieldLengths: Float64Array
  tree: TermTreeArrays
  /**
   * Term t's postings are `postings(termPostingsStart[t], termPostingsStart[t + 1])`; positions
   * are the source's own (u32 positions in memory, byte offsets of the encoded file section).
   */
  termPostingsStart: Uint32Array
  /**
   * The postings between two positions: per term, for each field in MiniSearch's JSON order,
   * `fieldId, count`, then `count` short ids (ascending), then their `count` frequencies.
   */
  postings(from: number, to: number): Uint32Array
}

/** A term's postings as views into them (nothing is copied). */
export function termPostings(postings: Uint32Array): TermData {
  const fields: Array<FieldPostings | undefined> = []
  for (let i = 0; i < postings.length;) {
    const fieldId = postings[i]!
    const count = postings[i + 1]!
    const ids = postings.subarray(i + 2, i + 2 + count)
    fields[fieldId] = { ids, frequencies: postings.subarray(i + 2 + count, i + 2 + 2 * count) }
    i += 2 + 2 * count
  }
  return fields
}

/** One field's postings of a term: short ids ascending, and the term's frequency in each. */
export interface FieldPostings {
  ids: Uint32Array
  frequencies: Uint32Array
}

/**
 * Per field id, a term's postings (undefined for a field it does not occur in): what a loaded
 * MiniSearch holds as `Map<fieldId, Map<shortId, frequency>>`, in the same order, as arrays.
 */
export type TermData = ReadonlyArray<FieldPostings | undefined>
