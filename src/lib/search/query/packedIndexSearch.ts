import type { Options, SearchOptions } from 'minisearch'
import { termPostings, type PackedIndexParts, type TermData } from '../index/packedIndex.js'
import { PackedTermTree } from '../index/termTree.js'
import type { TermFilter } from './hitTerms.js'
import type { ScoredIndex } from './scoredIndex.js'
import { searchWords, type IndexAnswer } from './scoring.js'
import { createSearchWorkspace, type SearchWorkspace } from './workspace.js'
import type { AlternativesOf } from './wordTerms.js'

export interface PackedIndex {
  /**
   * Words (split at spaces) are alternatives (OR), the terms of one word must all match (AND);
   * the best `limit` hits (default all) with MiniSearch's scores and order. `listsTerm`: which
   * matched index terms the hits list in `terms` (default all). `alternativesOf`: other
   * spellings each word also matches (default none); `readingsOf`: the spellings each word
   * finds through readings, ranked below it (default none).
   */
  search(
    query: string,
    limit?: number,
    listsTerm?: TermFilter,
    alternativesOf?: AlternativesOf,
    readingsOf?: AlternativesOf,
  ): IndexAnswer
}

/**
 * MiniSearch 7's `defaultSearchOptions`, which a loaded index merges under its own.
 * why: a copy, so the search function does not load MiniSearch (a large part of its cold
 * start); a test checks it against the pinned MiniSearch
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

/**
 * The index of `parts`, searched with `workspace` (default a fresh one). `options` must be the
 * ones the index was built with (tokenize and processTerm included).
 */
export function loadPackedIndex<T>(
  parts: PackedIndexParts,
  options: Options<T>,
  workspace: SearchWorkspace = createSearchWorkspace(),
): PackedIndex {
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
  const slots = common.nextId
  const scored: ScoredIndex = {
    terms: new PackedTermTree(parts.tree, termData),
    stats: {
      fieldIds: common.fieldIds,
      averageFieldLength: common.averageFieldLength,
      documentCount: common.documentCount,
      slots,
    },
    fields: options.fields,
    // why: what MiniSearch's search derives for the terms of an AND word of a loaded index
    termOptions: {
      ...MINISEARCH_SEARCH_DEFAULTS,
      ...options.searchOptions,
      tokenize: options.tokenize,
      processTerm: options.processTerm,
      ...options.searchOptions,
      combineWith: 'AND',
    },
    documents: {
      documentId,
      fieldLengths: Array.from({ length: Object.keys(common.fieldIds).length }, (_, fieldId) =>
        fieldLengths.subarray(fieldId * slots, (fieldId + 1) * slots),
      ),
    },
    titleFieldId: common.fieldIds.title,
    textFieldId: common.fieldIds.text,
  }
  return {
    search: (query, limit = Number.POSITIVE_INFINITY, listsTerm, alternativesOf, readingsOf) =>
      searchWords(
        workspace,
        query.split(' ').filter(Boolean),
        scored,
        limit,
        listsTerm,
        alternativesOf,
        readingsOf,
      ),
  }
}
