import type { Options, SearchOptions } from 'minisearch'
import { termPostings, type PackedIndexParts, type TermData } from '../index/packedIndex.js'
import { PackedTermTree } from '../index/termTree.js'
import {
  searchWords,
  type AlternativesOf,
  type IndexAnswer,
  type IndexInternals,
  type ScoredIndex,
} from './minisearchScoring.js'
import type { TermFilter } from './hitTerms.js'

export interface PackedIndex {
  /**
   * Words (split at spaces) are alternatives (OR), the terms of one word must all match (AND);
   * the best `limit` hits (default all) with MiniSearch's scores and order. `listsTerm`: which
   * matched index terms the hits list in `terms` (default all). `alternativesOf`: other
   * spellings each word also matches (default none).
   */
  search(
    query: string,
    limit?: number,
    listsTerm?: TermFilter,
    alternativesOf?: AlternativesOf,
  ): IndexAnswer
}

/**
 * MiniSearch 7's `defaultSearchOptions`, which a loaded index merges under its own.
 * why: a copy, so the search function does not load MiniSearch (a sixth of its cold start);
 * a test checks it against the pinned MiniSearch
 */
export const MINISEARCH_SEARCH_DEFAULTS: SearchOptions = {
  combineWith: 'or',
  prefix: false,
  fuzzy: false,
  maxFuzzy: 6,
  boost: {},
  weights: { fuzzy: 0.45, prefix: 0.375 },
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
}

/** `options` must be the ones the index was built with (tokenize and processTerm included). */
export function loadPackedIndex<T>(parts: PackedIndexParts, options: Options<T>): PackedIndex {
  const { common, termPostingsStart, postings, documentId, fieldLengths } = parts
  if (!options.tokenize || !options.processTerm) {
    throw new Error('loadPackedIndex needs the index options’ tokenize and processTerm')
  }
  // why: a Map, as an array written at scattered term numbers turns into a slow dictionary
  const read = new Map<number, TermData>()
  const termData = (term: number): TermData => {
    let data = read.get(term)
    if (!data) {
      data = termPostings(postings(termPostingsStart[term]!, termPostingsStart[term + 1]!))
      read.set(term, data)
    }
    return data
  }
  // why: what MiniSearch.loadJS would set on a loaded index, without building its term Maps
  const index: IndexInternals = {
    _index: new PackedTermTree(parts.tree, termData),
    _options: {
      fields: options.fields,
      searchOptions: { ...MINISEARCH_SEARCH_DEFAULTS, ...options.searchOptions },
    },
    _fieldIds: common.fieldIds,
    _avgFieldLength: common.averageFieldLength,
    _documentCount: common.documentCount,
    _nextId: common.nextId,
  }
  const slots = common.nextId
  const scored: ScoredIndex = {
    index,
    documents: {
      documentId,
      fieldLengths: Array.from({ length: Object.keys(common.fieldIds).length }, (_, fieldId) =>
        fieldLengths.subarray(fieldId * slots, (fieldId + 1) * slots),
      ),
    },
    titleFieldId: common.fieldIds.title,
    textFieldId: common.fieldIds.text,
    // why: the options MiniSearch's search derives for the terms of an AND word
    termOptions: {
      tokenize: options.tokenize,
      processTerm: options.processTerm,
      ...options.searchOptions,
      combineWith: 'AND',
    },
  }
  return {
    search: (query, limit = Number.POSITIVE_INFINITY, listsTerm, alternativesOf) =>
      searchWords(query.split(' ').filter(Boolean), scored, limit, listsTerm, alternativesOf),
  }
}
