import path from 'node:path'
import MiniSearch from 'minisearch'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadContentPages, type ContentPage } from '../../src/lib/search/contentPages.js'
import {
  encodeShard,
  INDEX_SHARD_COUNT,
  loadShardedIndex,
  shardOfTerm,
  splitIndex,
} from '../../src/lib/search/indexShards.js'
import { unpackText } from '../../src/lib/search/packedText.js'
import { searchOptions, type IndexedPage } from '../../src/lib/search/searchOptions.js'
import { toQueryTree } from '../../src/lib/search/siteSearch.js'
import { encodeTerm } from '../../src/lib/search/termEncoding.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'
import { searchQualityCases } from './searchQualityCases.js'

const repoRoot = path.resolve(import.meta.dirname, '../..')
let pages: ContentPage[]
let whole: MiniSearch<IndexedPage>

beforeAll(async () => {
  pages = await loadContentPages(path.join(repoRoot, 'content'))
  whole = new MiniSearch<IndexedPage>(searchOptions)
  whole.addAll(pages)
})

// why: the order of prefix and fuzzy expansions follows the radix tree, which depends on the
// order terms were inserted; the deployed index was always one loaded from its JSON
const loadedWhole = (): MiniSearch<IndexedPage> =>
  MiniSearch.loadJSON<IndexedPage>(JSON.stringify(whole), searchOptions)

const QUERIES = [
  ...searchQualityCases.map((c) => c.query),
  '茶',
  'お',
  'ー',
  '予約商品 tokoname',
  'toko',
  'tokonme',
  'coffe',
  '急須 ドリッパー 入荷',
  'v60',
  'zzzz',
  '予約商品の入荷のお知らせ',
]

describe('sharded index', () => {
  it('puts every Latin term in shard 0 and a Japanese term by its first character', () => {
    expect(shardOfTerm('tokoname', 32)).toBe(0)
    expect(shardOfTerm('v60', 32)).toBe(0)
    const shard = shardOfTerm(encodeTerm('抹茶'), 32)
    expect(shard).toBeGreaterThan(0)
    expect(shardOfTerm(encodeTerm('抹'), 32)).toBe(shard)
    expect(shardOfTerm(encodeTerm('抹消'), 32)).toBe(shard)
  })

  it('answers every query with the ids, scores, order and terms of the whole index', () => {
    const sharded = loadShardedIndex(splitIndex(whole.toJSON()), searchOptions)
    const reference = loadedWhole()
    for (const raw of QUERIES) {
      const query = normalizeQuery(raw)
      const expected = reference
        .search(toQueryTree(query))
        .map(({ id, score, terms, queryTerms }) => ({
          id,
          score,
          terms,
          queryTerms,
        }))
      expect(sharded.search(query), query).toEqual({ hits: expected, total: expected.length })
      expect(sharded.search(query, 3).hits, query).toEqual(expected.slice(0, 3))
    }
  })

  it('parses only the shards a query needs', () => {
    const sharded = loadShardedIndex(splitIndex(whole.toJSON()), searchOptions)
    sharded.search('急須')
    expect(sharded.loadedShards()).toBe(1)
    sharded.search('予約商品')
    expect(sharded.loadedShards()).toBeLessThanOrEqual(4)
    expect(sharded.loadedShards()).toBeLessThan(INDEX_SHARD_COUNT)
  })

  it('splits like building each shard with a processTerm that keeps only its terms', () => {
    const split = splitIndex(whole.toJSON())
    for (const shard of [0, shardOfTerm(encodeTerm('急'), INDEX_SHARD_COUNT)]) {
      const baseTerm = searchOptions.processTerm!
      const own = new MiniSearch<IndexedPage>({
        ...searchOptions,
        processTerm: (term, field) => {
          const processed = baseTerm(term, field)
          return typeof processed === 'string' &&
            shardOfTerm(processed, INDEX_SHARD_COUNT) === shard
            ? processed
            : null
        },
      })
      own.addAll(pages)
      const { index, ...common } = own.toJSON()
      expect(JSON.parse(split.common)).toEqual(JSON.parse(JSON.stringify(common)))
      const byTermMap = ([terms, postings]: [string[], number[][]]) =>
        new Map(terms.map((term, i) => [term, postings[i]]))
      expect(byTermMap(JSON.parse(unpackText(split.shards[shard]!)))).toEqual(
        byTermMap(encodeShard(index)),
      )
    }
  })
})
