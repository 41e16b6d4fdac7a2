import MiniSearch, { type AsPlainObject, type Options, type SearchOptions } from 'minisearch'
import { packText, unpackText } from './packedText.js'
import {
  fieldLengthArrays,
  searchWords,
  type IndexAnswer,
  type IndexInternals,
  type SharedDocuments,
} from './shardedSearch.js'
import { isEncodedJapaneseTerm } from './termEncoding.js'

/**
 * Shards the build writes: shard 0 holds every non-Japanese term (so fuzzy matching still sees
 * all Latin terms at once), the other 255 the Japanese terms by their first character.
 * why: the fewer postings a shard holds, the less a query parses for a term it has not seen;
 * with 256 rather than 32 shards a query that loads a shard took ~15 instead of ~35 ms on the
 * 2,000-page benchmark.
 */
export const INDEX_SHARD_COUNT = 256

/**
 * One MiniSearch index stored as shards that are parsed only when a query needs them.
 * why: parsing and `loadJSON` of the whole index (0.9 M postings at 2,000 pages) took most of
 * a cold start; each term of a Japanese query word needs one shard.
 */
export interface SerializedShardedIndex {
  /** MiniSearch's JSON without its terms: document ids, field lengths, counts. */
  common: string
  /** Per shard, its terms and postings (`encodeShard`), packed (packedText.ts). */
  shards: readonly string[]
}

export interface ShardedIndex {
  /**
   * Words (split at spaces) are alternatives (OR), the terms of one word must all match (AND);
   * the best `limit` hits (default all) with MiniSearch's scores and order.
   */
  search(query: string, limit?: number): IndexAnswer
  /** How many shards have been parsed so far. */
  loadedShards(): number
}

/** The shard of an index term (as processTerm returned it). */
export function shardOfTerm(indexTerm: string, shardCount: number): number {
  if (!isEncodedJapaneseTerm(indexTerm)) return 0
  // why: the first UTF-16 unit decides, so every prefix query (one Japanese character at least)
  // finds all its terms in one shard
  return 1 + (Number.parseInt(indexTerm.slice(1, 5), 16) % (shardCount - 1))
}

/**
 * Splits a built index by term. Each shard equals an index built with a processTerm that keeps
 * only that shard's terms: MiniSearch counts a field's length from the tokens before processTerm,
 * and document count and ids are shared, so BM25 scores are the same as the whole index's.
 */
export function splitIndex(
  index: AsPlainObject,
  shardCount = INDEX_SHARD_COUNT,
): SerializedShardedIndex {
  const { index: entries, ...common } = index
  const shards = Array.from({ length: shardCount }, (): AsPlainObject['index'] => [])
  for (const entry of entries) shards[shardOfTerm(entry[0], shardCount)]!.push(entry)
  return {
    common: JSON.stringify(common),
    shards: shards.map((shard) => packText(JSON.stringify(encodeShard(shard)))),
  }
}

/**
 * `[terms, postings]`: per term, in MiniSearch's JSON order, a flat list of
 * `fieldId, count, (docId delta, frequency) × count` for each field.
 * why: `JSON.parse` of MiniSearch's `{fieldId: {docId: frequency}}` objects (numeric keys) and
 * `loadJS` turning each into a Map took ~180 ms for the 1 MB shard of Latin terms; arrays of
 * small numbers parse several times faster.
 */
export function encodeShard(entries: AsPlainObject['index']): [string[], number[][]] {
  const terms: string[] = []
  const postings: number[][] = []
  for (const [term, fields] of entries) {
    const flat: number[] = []
    // why: Object.keys order (numeric keys ascending) is the order loadJS would insert them in
    for (const fieldId of Object.keys(fields)) {
      const frequencies = fields[fieldId]! as Record<string, number>
      const docIds = Object.keys(frequencies)
      flat.push(Number(fieldId), docIds.length)
      let previous = 0
      for (const docId of docIds) {
        flat.push(Number(docId) - previous, frequencies[docId]!)
        previous = Number(docId)
      }
    }
    terms.push(term)
    postings.push(flat)
  }
  return [terms, postings]
}

/** Inserts the terms of an `encodeShard` shard into a loaded index, as `loadJS` would. */
function insertShard(index: ShardTermMap, [terms, postings]: [string[], number[][]]): void {
  for (let t = 0; t < terms.length; t++) {
    const flat = postings[t]!
    const fields = new Map<number, Map<number, number>>()
    for (let i = 0; i < flat.length;) {
      const fieldId = flat[i++]!
      const count = flat[i++]!
      const frequencies = new Map<number, number>()
      let docId = 0
      for (let n = 0; n < count; n++) {
        docId += flat[i++]!
        frequencies.set(docId, flat[i++]!)
      }
      fields.set(fieldId, frequencies)
    }
    index.set(terms[t]!, fields)
  }
}

type ShardTermMap = { set(term: string, fields: Map<number, Map<number, number>>): unknown }

/** `options` must be the ones the index was built with. */
export function loadShardedIndex<T>(
  serialized: SerializedShardedIndex,
  options: Options<T>,
): ShardedIndex {
  const shardCount = serialized.shards.length
  const shards: Array<IndexInternals | undefined> = []
  let common: Omit<AsPlainObject, 'index'> | null = null
  let documents: SharedDocuments | null = null
  const commonData = (): Omit<AsPlainObject, 'index'> =>
    (common ??= JSON.parse(serialized.common) as Omit<AsPlainObject, 'index'>)
  const sharedDocuments = (): SharedDocuments => {
    if (!documents) {
      const { documentIds, fieldLength, nextId, fieldIds } = commonData()
      const fieldCount = Object.keys(fieldIds).length
      documents = { documentIds, fieldLengths: fieldLengthArrays(fieldLength, nextId, fieldCount) }
    }
    return documents
  }
  const shard = (number: number): IndexInternals => {
    let loaded = shards[number]
    if (!loaded) {
      const shard = JSON.parse(unpackText(serialized.shards[number]!)) as [string[], number[][]]
      // why: documents and field lengths are shared (SharedDocuments); rebuilding MiniSearch's
      // maps of them for every shard was a third of a cold start
      const shell = { ...commonData(), documentIds: {}, fieldLength: {}, storedFields: {} }
      loaded = MiniSearch.loadJS({ ...shell, index: [] }, options) as unknown as IndexInternals
      insertShard(loaded._index as unknown as ShardTermMap, shard)
      shards[number] = loaded
    }
    return loaded
  }
  // why: the options MiniSearch's search derives for the terms of an AND word
  const termOptions: SearchOptions = {
    tokenize: options.tokenize ?? MiniSearch.getDefault('tokenize'),
    processTerm: options.processTerm ?? MiniSearch.getDefault('processTerm'),
    ...options.searchOptions,
    combineWith: 'AND',
  }
  return {
    search: (query, limit = Number.POSITIVE_INFINITY) =>
      searchWords(
        query.split(' ').filter(Boolean),
        termOptions,
        (term) => shard(shardOfTerm(term, shardCount)),
        sharedDocuments(),
        limit,
      ),
    loadedShards: () => shards.filter(Boolean).length,
  }
}
