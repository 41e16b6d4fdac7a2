import type { SearchOptions } from 'minisearch'
import type { TermData } from '../index/packedIndex.js'
import type { TermTree } from '../index/termTree.js'

/** What the search reads of a loaded index (packedIndexSearch.ts makes it from the data file). */
export interface ScoredIndex {
  /** The index terms, each with its postings by field id. */
  terms: TermTree<TermData>
  stats: IndexStats
  /** The index's fields by name, in field id order. */
  fields: readonly string[]
  /**
   * The options a query term is searched with: MiniSearch's search defaults, under the index's
   * search options, its tokenizer and term processing, its words' terms combined with AND.
   */
  termOptions: SearchOptions
  documents: SharedDocuments
  /** The title's field id: results are re-ranked title-first (titleFirstRanking.ts). */
  titleFieldId?: number
  /** The text's field id: hits tell whether they matched in it (`inText`). */
  textFieldId?: number
}

/** What BM25 reads of the whole index. */
export interface IndexStats {
  /** Field id by field name. */
  fieldIds: Readonly<Record<string, number>>
  /** Each field's average length (unique terms) over the documents, by field id. */
  averageFieldLength: readonly number[]
  /** How many documents the index holds. */
  documentCount: number
  /** One more than the largest short id: the length of the arrays by short id. */
  slots: number
}

/** The documents' ids and field lengths by short id. */
export interface SharedDocuments {
  /** Page id by short id; null where the index has no document. */
  documentId(shortId: number): string | null
  /** Per field id, the field's length (unique terms) by short id. */
  fieldLengths: readonly Float64Array[]
}
