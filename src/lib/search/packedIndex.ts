import MiniSearch, { type AsPlainObject, type Options } from 'minisearch'
import {
  searchWords,
  type IndexAnswer,
  type IndexInternals,
  type ScoredIndex,
  type SharedDocuments,
  type TermData,
} from './minisearchScoring.js'
import { packTermTree, PackedTermTree, type TermTreeArrays } from './termTree.js'

/** MiniSearch's JSON without terms, documents and stored fields: counts, field ids. */
export type IndexCommon = Omit<
  AsPlainObject,
  'index' | 'documentIds' | 'fieldLength' | 'storedFields'
>

/**
 * A built MiniSearch index as flat arrays: the term tree (termTree.ts), every term's postings,
 * the documents' field lengths; the form the search data file stores and reads without parsing.
 */
export interface PackedIndexParts {
  common: IndexCommon
  /** Page id by short id; null where MiniSearch has no document. */
  documentIds: ReadonlyArray<string | null>
  /** Field f's length (unique terms) of short id s at f × documentIds.length + s; NaN if none. */
  fieldLengths: Float64Array
  tree: TermTreeArrays
  /** Term t's postings are `postings` from termPostingsStart[t] to termPostingsStart[t + 1]. */
  termPostingsStart: Uint32Array
  /**
   * The postings between two positions: per term, for each field in MiniSearch's JSON order,
   * `fieldId, count`, then `count` pairs of `(short id − previous short id, frequency)`.
   */
  postings(from: number, to: number): Uint32Array
}

export interface PackedIndex {
  /**
   * Words (split at spaces) are alternatives (OR), the terms of one word must all match (AND);
   * the best `limit` hits (default all) with MiniSearch's scores and order.
   */
  search(query: string, limit?: number): IndexAnswer
  /** How many terms' postings have been decoded so far. */
  decodedTerms(): number
}

/** Packs MiniSearch's `toJSON()` of an index. */
export function packIndex(index: AsPlainObject): PackedIndexParts {
  // why: stored fields are kept beside the index (storeFields is empty), not in it
  const { index: entries, documentIds, fieldLength, storedFields, ...common } = index
  void storedFields
  const slots = common.nextId
  const fieldCount = Object.keys(common.fieldIds).length
  const termPostingsStart = new Uint32Array(entries.length + 1)
  const postings: number[] = []
  entries.forEach(([, fields], t) => {
    // why: Object.keys order (numeric keys ascending) is the order loadJS would insert them in
    for (const fieldId of Object.keys(fields)) {
      const frequencies = fields[fieldId]! as Record<string, number>
      const shortIds = Object.keys(frequencies)
      postings.push(Number(fieldId), shortIds.length)
      let previous = 0
      for (const shortId of shortIds) {
        postings.push(Number(shortId) - previous, frequencies[shortId]!)
        previous = Number(shortId)
      }
    }
    termPostingsStart[t + 1] = postings.length
  })
  const packedPostings = Uint32Array.from(postings)
  return {
    common,
    documentIds: Array.from({ length: slots }, (_, shortId) =>
      Object.hasOwn(documentIds, shortId) ? String(documentIds[shortId]) : null,
    ),
    fieldLengths: packFieldLengths(fieldLength, slots, fieldCount),
    tree: packTermTree(entries.map(([term]) => term)),
    termPostingsStart,
    postings: (from, to) => packedPostings.subarray(from, to),
  }
}

/** `options` must be the ones the index was built with. */
export function loadPackedIndex<T>(parts: PackedIndexParts, options: Options<T>): PackedIndex {
  const { common, termPostingsStart, postings, documentIds, fieldLengths } = parts
  const decoded: Array<TermData | undefined> = []
  let decodedCount = 0
  const termData = (term: number): TermData => {
    let data = decoded[term]
    if (!data) {
      data = decodePostings(postings(termPostingsStart[term]!, termPostingsStart[term + 1]!))
      decoded[term] = data
      decodedCount++
    }
    return data
  }
  // why: an empty shell gives MiniSearch's own defaults, counts and field ids; the terms are
  // the packed tree, so no Map is built for a term no query has asked for
  const shell = MiniSearch.loadJS(
    { ...common, documentIds: {}, fieldLength: {}, storedFields: {}, index: [] },
    options,
  ) as unknown as IndexInternals
  const internals: IndexInternals = {
    _index: new PackedTermTree(parts.tree, termData),
    _options: shell._options,
    _fieldIds: shell._fieldIds,
    _avgFieldLength: shell._avgFieldLength,
    _documentCount: shell._documentCount,
    _nextId: shell._nextId,
  }
  const slots = documentIds.length
  const documents: SharedDocuments = {
    documentIds,
    fieldLengths: Object.values(common.fieldIds).map((fieldId) =>
      fieldLengths.subarray(fieldId * slots, (fieldId + 1) * slots),
    ),
  }
  // why: the options MiniSearch's search derives for the terms of an AND word
  const scored: ScoredIndex = {
    index: internals,
    documents,
    termOptions: {
      tokenize: options.tokenize ?? MiniSearch.getDefault('tokenize'),
      processTerm: options.processTerm ?? MiniSearch.getDefault('processTerm'),
      ...options.searchOptions,
      combineWith: 'AND',
    },
  }
  return {
    search: (query, limit = Number.POSITIVE_INFINITY) =>
      searchWords(query.split(' ').filter(Boolean), scored, limit),
    decodedTerms: () => decodedCount,
  }
}

/** MiniSearch's `fieldLength` ({shortId: [length per field]}) as one array, field by field. */
function packFieldLengths(
  fieldLength: AsPlainObject['fieldLength'],
  slots: number,
  fieldCount: number,
): Float64Array {
  // why: a missing length makes MiniSearch's arithmetic NaN; keep it so
  const packed = new Float64Array(fieldCount * slots).fill(Number.NaN)
  for (const [shortId, lengths] of Object.entries(fieldLength)) {
    for (let fieldId = 0; fieldId < fieldCount; fieldId++) {
      packed[fieldId * slots + Number(shortId)] = lengths[fieldId] ?? Number.NaN
    }
  }
  return packed
}

function decodePostings(postings: Uint32Array): TermData {
  const fields: TermData = new Map()
  for (let i = 0; i < postings.length;) {
    const fieldId = postings[i++]!
    const count = postings[i++]!
    const frequencies = new Map<number, number>()
    let shortId = 0
    for (let n = 0; n < count; n++) {
      shortId += postings[i++]!
      frequencies.set(shortId, postings[i++]!)
    }
    fields.set(fieldId, frequencies)
  }
  return fields
}
