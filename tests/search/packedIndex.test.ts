import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import MiniSearch, { type Query, type SearchResult } from 'minisearch'
import SearchableMap from 'minisearch/SearchableMap'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadContentPages, type ContentPage } from '../../src/build/search/contentPages.js'
import {
  loadPackedIndex,
  MINISEARCH_SEARCH_DEFAULTS,
} from '../../src/lib/search/query/packedIndexSearch.js'
import { encodeSiteSearchData, packIndex } from '../../src/build/search/searchDataWriter.js'
import { searchOptions, type IndexedPage } from '../../src/lib/search/terms/indexOptions.js'
import { searchDataInMemory } from '../../bench/searchDataInMemory.js'
import type { PackedIndexParts } from '../../src/lib/search/index/packedIndex.js'
import { PackedTermTree } from '../../src/lib/search/index/termTree.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'
import { isLatinIndexTerm } from '../../src/lib/search/terms/termEncoding.js'
import { LONG_TEXT_TERMS } from '../../src/lib/search/query/hitTerms.js'
import { createSearchWorkspace, type Accelerators } from '../../src/lib/search/query/workspace.js'
import { generatedSite } from '../../bench/bench-search-corpus.js'
import { searchQualityCases } from '../../bench/searchQualityCases.js'

const repoRoot = path.resolve(import.meta.dirname, '../..')
let pages: ContentPage[]
let whole: MiniSearch<IndexedPage>

beforeAll(async () => {
  pages = await loadContentPages(path.join(repoRoot, 'content'))
  whole = new MiniSearch<IndexedPage>(searchOptions)
  whole.addAll(pages)
})

// why: the order of prefix and fuzzy expansions follows the radix tree, which depends on the
// order terms were inserted; the reference is an index loaded from its JSON, as the packed
// tree is built
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
  'okoname',
  'coffe',
  'c',
  '急須 ドリッパー 入荷',
  'v60',
  'zzzz',
  '予約商品の入荷のお知らせ',
  // why: words sharing terms, counted once in MiniSearch's quality factor
  '急須 急須',
  'ドリッパー ドリップ 急須',
]

/** Every term with each prefix of it, a one-letter change, drop and addition. */
function probesOf(terms: readonly string[]): string[] {
  const probes = new Set<string>(['', 'zzzz'])
  for (const term of terms) {
    for (let i = 0; i <= term.length; i++) {
      probes.add(term.slice(0, i))
      probes.add(term.slice(0, i) + 'x' + term.slice(i + 1))
      probes.add(term.slice(0, i) + term.slice(i + 1))
      probes.add(term.slice(0, i) + 'q' + term.slice(i))
    }
  }
  return [...probes]
}

function expectSameTree(
  terms: readonly string[],
  probes: readonly string[],
  distances = [1, 2, 3],
): void {
  const { terms: ordered, tree, parts } = treeOf(terms)
  const reference = new SearchableMap<number>()
  ordered.forEach((term, number) => reference.set(term, number))
  // why: the data file reads each subtree below the root when a walk first enters it: one
  // reading for all probes, and a fresh one per probe, whose walks enter subtrees not read yet
  const { bytes } = encodeSiteSearchData('test', parts, [])
  const fromFile = () => searchDataInMemory(bytes).index.tree
  const shared = fromFile()
  for (const probe of probes) {
    for (const arrays of [tree, shared, fromFile()]) {
      const packed = new PackedTermTree(arrays, (number) => number)
      if (arrays !== tree) expect(arrays.loadSubtree, 'read by subtree').toBeDefined()
      expect(packed.get(probe), probe).toBe(reference.get(probe))
      expect(packed.atPrefix(probe), probe).toEqual([...reference.atPrefix(probe)])
      for (const distance of distances) {
        expect([...packed.fuzzyGet(probe, distance)], `${probe} ~${distance}`).toEqual([
          ...reference.fuzzyGet(probe, distance),
        ])
      }
    }
  }
}

/** The packed tree of an index holding exactly `terms`, and its terms in their JSON order. */
function treeOf(terms: readonly string[]): {
  terms: string[]
  tree: PackedIndexParts['tree']
  parts: PackedIndexParts
} {
  const index = new MiniSearch<{ id: number; text: string }>({
    fields: ['text'],
    tokenize: (text) => text.split(' '),
    processTerm: (term) => term || null,
  })
  terms.forEach((term, id) => index.add({ id, text: term }))
  const json = index.toJSON()
  const parts = packIndex(json)
  return { terms: json.index.map(([term]) => term), tree: parts.tree, parts }
}

/**
 * The packed index's query as a MiniSearch query: words (split at spaces) are alternatives
 * (OR), the terms of one word must all match (AND).
 */
const toQueryTree = (query: string): Query => ({
  combineWith: 'OR',
  queries: query
    .split(' ')
    .filter(Boolean)
    .map((word) => ({ combineWith: 'AND', queries: [word] })),
})

/**
 * MiniSearch's results re-ranked as docs/search.md's "Decision: title-first ranking" says: by
 * the number of query words matched, then of words the title holds un-fuzzed (exact or prefix),
 * then within one edit, then at all; then MiniSearch's score. The reported score is the tier
 * plus s / (1 + s). Worked out here from MiniSearch's `match` (which index term matched in
 * which field), independently of the packed index's code.
 */
function titleFirst(query: string, results: SearchResult[]): SearchResult[] {
  const words = query.split(' ').filter(Boolean)
  const termsOf = (word: string): string[] =>
    searchOptions.tokenize!(word)
      .map((term) => searchOptions.processTerm!(term))
      .filter((term): term is string => typeof term === 'string' && term !== '')
  /** How far index term `found` is from query term `term` as a match, or null if it is not one. */
  const distance = (term: string, found: string): number | null => {
    if (found.startsWith(term)) return 0
    if (term.startsWith('~')) return null
    const max = Math.min(6, Math.round(term.length * 0.2))
    const d = levenshtein(term, found)
    return d <= max ? d : null
  }
  const base = words.length + 1
  const reranked = results.map((result) => {
    const tier = [0, 0, 0, 0]
    for (const word of words) {
      const terms = termsOf(word)
      const nearest = (inTitle: boolean): number[] =>
        terms.map((term) => {
          let best = Number.POSITIVE_INFINITY
          for (const [found, fields] of Object.entries(result.match)) {
            if (inTitle && !fields.includes('title')) continue
            const d = distance(term, found)
            if (d !== null) best = Math.min(best, d)
          }
          return best
        })
      if (terms.length === 0 || nearest(false).some((d) => d === Infinity)) continue
      tier[0]++
      const title = Math.max(...nearest(true))
      if (title === Infinity) continue
      tier[3]++
      if (title <= 1) tier[2]++
      if (title === 0) tier[1]++
    }
    const whole = ((tier[0]! * base + tier[1]!) * base + tier[2]!) * base + tier[3]!
    return { ...result, score: whole + result.score / (1 + result.score) }
  })
  return reranked.sort((a, b) => b.score - a.score)
}

/**
 * Whether a query involves a variant MiniSearch does not know (docs/search.md, "Decision: variant
 * folding"): a Latin word one swap of letters from an index term or the start of one, or a Latin
 * word the index lacks that splits into words it holds. Only such queries may answer otherwise.
 */
function involvesVariant(query: string, index: MiniSearch<IndexedPage>): boolean {
  const terms = (index as unknown as { _index: SearchableMap<unknown> })._index
  const holds = (term: string): boolean => terms.has(term)
  const splits = (word: string, depth: number): boolean => {
    for (let cut = word.length - 3; cut >= 3; cut--) {
      if (!holds(word.slice(0, cut))) continue
      const tail = word.slice(cut)
      if (holds(tail) || (depth === 0 && splits(tail, 1))) return true
    }
    return false
  }
  return query.split(' ').some((word) => {
    if (!/^[a-z0-9]+$/.test(word)) return false
    if (word.length >= 6 && !holds(word) && splits(word, 0)) return true
    if (Math.round(word.length * 0.2) < 1) return false
    for (let i = 0; i + 1 < word.length; i++) {
      const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
      if (swapped === word) continue
      if (holds(swapped) || (swapped.length >= 4 && terms.atPrefix(swapped).size > 0)) return true
    }
    return false
  })
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}

describe('packed term tree', () => {
  it('gives what MiniSearch’s SearchableMap gives, in its order, for edge splits and prefixes', () => {
    const terms = ['romane', 'romanus', 'romulus', 'rubens', 'ruber', 'rubicon', 'rubicundus']
    terms.push('rom', 'r', 'rubiconx', 'ab', 'a', 'abc', 'カフェ', 'café', 'cafe', '~62b98336')
    expectSameTree(terms, probesOf(terms))
    expectSameTree([], ['', 'a'])
  })

  it('gives what SearchableMap gives for every term of the sample index', () => {
    const terms = whole.toJSON().index.map(([term]) => term)
    // why: every third Latin term's variants keep this under a few seconds
    const latin = terms.filter((term, i) => !term.startsWith('~') && i % 3 === 0)
    expectSameTree(terms, [...probesOf(latin), ...terms.slice(0, 300)], [1, 2])
  })
})

/**
 * A MiniSearch result as the packed index answers it; `inText`: some term matched the text, or
 * the text is short (LONG_TEXT_TERMS), as `reference` holds its length.
 */
function expectedHit(reference: MiniSearch<IndexedPage>) {
  const internals = reference as unknown as {
    _idToShortId: Map<string, number>
    _fieldLength: Map<number, number[]>
    _fieldIds: Record<string, number>
  }
  return ({ id, score, terms, queryTerms, match }: SearchResult) => {
    const lengths = internals._fieldLength.get(internals._idToShortId.get(id)!)!
    const inText =
      lengths[internals._fieldIds.text!]! < LONG_TEXT_TERMS ||
      Object.values(match).some((fields) => fields.includes('text'))
    return { id, score, terms, queryTerms, inText }
  }
}

/**
 * The oracle tests answer with every accelerator (workspace.ts) on, as deployed, and with every
 * one off (the plain path): both must be MiniSearch's answers.
 */
const ACCELERATOR_SETTINGS: readonly [string, Partial<Accelerators>][] = [
  ['accelerators on', {}],
  ['accelerators off', { postingBits: false, titleTiers: false, textHeads: false }],
]

describe('packed index', () => {
  it('answers every query as MiniSearch does, followed by the title-first re-ranking', () => {
    const { bytes } = encodeSiteSearchData('test', packIndex(whole.toJSON()), [])
    const reference = loadedWhole()
    for (const [setting, accelerators] of ACCELERATOR_SETTINGS) {
      const packed = loadPackedIndex(
        searchDataInMemory(bytes).index,
        searchOptions,
        createSearchWorkspace(accelerators),
      )
      for (const raw of QUERIES) {
        const query = normalizeQuery(raw)
        if (involvesVariant(query, reference)) continue
        const expected = titleFirst(query, reference.search(toQueryTree(query))).map(
          expectedHit(reference),
        )
        expect(packed.search(query), `${query}, ${setting}`).toEqual({
          hits: expected,
          total: expected.length,
        })
        // why: small limits take the title-tier shortcut (titleTierTop.ts) on this small site,
        // ties at the limit included
        for (const limit of [1, 2, 3, 5, 8]) {
          expect(packed.search(query, limit), `${query} ${limit}, ${setting}`).toEqual({
            hits: expected.slice(0, limit),
            total: expected.length,
          })
        }
      }
    }
  })

  it('answers a generated site of 1,000 pages as MiniSearch does, at the limits the service uses', async () => {
    // why: frequent words on hundreds of pages take the shortcut's paths that the small sample
    // site cannot (a single word's title holders, pages matching every word filling the top)
    const site = generatedSite()
    const dir = await mkdtemp(path.join(tmpdir(), 'packed-index-'))
    try {
      await site.writeCorpus(dir, 1000)
      const generated = new MiniSearch<IndexedPage>(searchOptions)
      generated.addAll(await loadContentPages(dir))
      const { bytes } = encodeSiteSearchData('test', packIndex(generated.toJSON()), [])
      const reference = MiniSearch.loadJSON<IndexedPage>(JSON.stringify(generated), searchOptions)
      const queries = [...new Set(site.benchQueries(120).map(normalizeQuery))]
      const plain = queries.filter((query) => !involvesVariant(query, reference))
      // why: the comparison must keep covering the bench's queries, typos included
      expect(plain.length).toBeGreaterThan(queries.length * 0.8)
      const expectedOf = new Map(
        plain.map((query) => [
          query,
          titleFirst(query, reference.search(toQueryTree(query))).map(expectedHit(reference)),
        ]),
      )
      let titleOnlyLongPages = 0
      for (const [setting, accelerators] of ACCELERATOR_SETTINGS) {
        const packed = loadPackedIndex(
          searchDataInMemory(bytes).index,
          searchOptions,
          createSearchWorkspace(accelerators),
        )
        // why: twice, as a long list gets its bits at its second search (postingBits.ts)
        for (const round of [1, 2]) {
          for (const query of plain) {
            const expected = expectedOf.get(query)!
            titleOnlyLongPages += expected.slice(0, 50).filter((hit) => !hit.inText).length
            for (const limit of [5, 20, 50]) {
              const top = expected.slice(0, limit)
              const about = `${query} ${limit}, ${setting}, round ${round}`
              expect(packed.search(query, limit), about).toEqual({
                hits: top,
                total: expected.length,
              })
              expect(packed.search(query, limit, isLatinIndexTerm).hits, about).toEqual(
                top.map((hit) => ({ ...hit, terms: hit.terms.filter(isLatinIndexTerm) })),
              )
            }
          }
        }
      }
      // why: long pages found by their title alone are compared too (`inText` false)
      expect(titleOnlyLongPages).toBeGreaterThan(0)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 120_000)

  it('uses MiniSearch’s own search defaults without loading MiniSearch', () => {
    const loaded = new MiniSearch({ fields: ['text'] }) as unknown as {
      _options: { searchOptions: unknown }
    }
    expect(MINISEARCH_SEARCH_DEFAULTS).toEqual(loaded._options.searchOptions)
  })

  it('reads the postings of only the terms a query reaches', () => {
    const parts = packIndex(whole.toJSON())
    let reads = 0
    const counted = {
      ...parts,
      postings: (from: number, to: number) => (reads++, parts.postings(from, to)),
    }
    const packed = loadPackedIndex(counted, searchOptions)
    packed.search(normalizeQuery('急須'))
    expect(reads).toBe(1)
    packed.search(normalizeQuery('予約商品'))
    expect(reads).toBe(4)
    packed.search(normalizeQuery('予約商品'))
    expect(reads).toBe(4)
  })

  it('refuses a hit whose page the data does not name, instead of naming it "null"', () => {
    const parts = packIndex(whole.toJSON())
    const packed = loadPackedIndex({ ...parts, documentId: () => null }, searchOptions)
    expect(() => packed.search(normalizeQuery('急須'))).toThrow(
      /The search data has no page for short id \d+\. Rebuild it/,
    )
  })

  it('walks the term tree once for each distinct term of a word, not once per term slot', () => {
    const parts = packIndex(whole.toJSON())
    // why: each fuzzy walk first asks for the whole tree (termTree.ts, `loadWhole`)
    let walks = 0
    const counted = { ...parts, tree: { ...parts.tree, loadWhole: () => void walks++ } }
    const packed = loadPackedIndex(counted, searchOptions)
    // why: a joined word the index lacks is searched in two slots, [word, hario] and
    // [word, v60]; the word has a fuzzy tolerance in both, its parts none (they are exact)
    const { hits } = packed.search(normalizeQuery('HARIOV60'))
    expect(walks).toBe(1)
    expect(hits[0]?.id).toBe('products/hario-v60-dripper')
  })

  it('matches the parts of a joined word as written or by prefix, never fuzzily', () => {
    const page = (id: string, title: string): IndexedPage => ({
      id,
      title,
      description: '',
      tags: [],
      text: '',
    })
    const index = new MiniSearch<IndexedPage>(searchOptions)
    index.addAll([
      page('both', 'Kosami Rinta dripper'),
      page('prefixed', 'Kosamis Rintaro kettle'),
      // why: one letter from each part: within their fuzzy tolerance, yet other words
      page('neighbours', 'Kosamo Rintu kettle'),
      page('one', 'Kosami mug'),
    ])
    const packed = loadPackedIndex(packIndex(index.toJSON()), searchOptions)
    const ids = (query: string): string[] =>
      packed
        .search(normalizeQuery(query))
        .hits.map((hit) => hit.id)
        .sort()
    expect(ids('kosamirinta')).toEqual(['both', 'prefixed'])
    // why: typed apart, each word keeps its tolerance
    expect(ids('kosami-rinta')).toEqual(['both', 'neighbours', 'prefixed'])
  })
})
