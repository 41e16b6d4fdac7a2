/**
 * Spelling variants on a generated, labelled corpus: `tsx bench/bench-search-variants.ts`
 * prints hit@10 and MRR per kind of known-item query typed as shoppers type: hiragana
 * for katakana, half-width katakana, a long vowel dropped or added, okurigana, Latin case, Latin
 * words joined or hyphenated, a camel-case part, two letters swapped, a synonym. Run by
 * bench-search.ts. Deterministic: the same seed gives the same pages and queries.
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import MiniSearch from 'minisearch'
import type { ContentPage } from '../src/build/search/contentPages.js'
import { searchDataInMemory } from './searchDataInMemory.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import {
  alternativesFinder,
  combineAlternatives,
  keyedGroups,
} from '../src/lib/search/query/searchAlternatives.js'
import { SPELLING_VARIANTS } from '../src/lib/search/terms/spellingVariants.js'
import { searchOptions, type IndexedPage } from '../src/lib/search/terms/indexOptions.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { searchDataOf } from '../src/build/siteContent.js'
import { figure, progress } from './benchReport.js'
import { JA_NOUNS, KATAKANA, seededRandom } from './bench-search-corpus.js'

const VARIANT_KINDS = [
  'hiragana for katakana',
  'half-width katakana',
  'long vowel',
  'okurigana',
  'Latin case',
  'Latin joined',
  'Latin hyphenated',
  'camel-case part',
  'transposition',
  'synonym',
] as const
type VariantKind = (typeof VARIANT_KINDS)[number]

interface LabelledQuery {
  kind: VariantKind
  query: string
  expected: string
}

const PAGES = 2000
const PER_KIND = 100
const SYLLABLES = 'ka ki ku ko sa shi su se so ta te to na ni no ha hi ma mi mo ra ri ro'.split(' ')
// why: katakana words whose long vowel shoppers drop or add (サーバー = サーバ, ブラウザ = ブラウザー)
const LONG_VOWEL_WORDS =
  'サーバー ブラウザ コンピューター プリンタ スキャナー ヒーター ミキサー'.split(' ')
const KANJI = '茶湯器皿碗壺釜鉢杯盆匙箸布紙竹木石鉄銅漆藍桜梅松'.split('')

const toHiragana = (text: string): string =>
  text.replace(/[\u30a1-\u30f6]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0x60))
let halfWidth: Map<string, string> | null = null
/** Katakana in half-width forms (ガ → ｶﾞ), as some keyboards type it. */
function toHalfWidth(text: string): string {
  if (!halfWidth) {
    halfWidth = new Map()
    for (let code = 0xff66; code <= 0xff9d; code++) {
      const half = String.fromCharCode(code)
      halfWidth.set(half.normalize('NFKC'), half)
    }
    for (const [full, half] of [...halfWidth]) {
      for (const mark of ['\u3099', '\u309a']) {
        const composed = (full + mark).normalize('NFC')
        if (composed.length === 1) halfWidth.set(composed, half + (mark === '\u3099' ? 'ﾞ' : 'ﾟ'))
      }
    }
  }
  return [...text].map((char) => halfWidth!.get(char) ?? char).join('')
}

/** The labelled corpus: pages, the synonym groups the site declares, queries per kind. */
function variantCorpus(): {
  pages: ContentPage[]
  synonyms: string[][]
  queries: LabelledQuery[]
} {
  const { random, pick, between } = seededRandom(20261124)
  const unique = <T>(make: () => T, count: number): T[] => {
    const found = new Set<T>()
    while (found.size < count) found.add(make())
    return [...found]
  }
  const name = (): string => Array.from({ length: between(2, 3) }, () => pick(SYLLABLES)).join('')
  const names = unique(name, PAGES * 2)
  // why: known items: each page's katakana compound and Latin name are its own
  const katakana = unique(() => pick(KATAKANA) + pick(KATAKANA) + pick(LONG_VOWEL_WORDS), PAGES)
  const synonymWords = unique(() => pick(KANJI) + pick(KANJI) + pick(KANJI), PAGES)
  const okurigana = SPELLING_VARIANTS.filter((group) => group.length > 1)
  const synonyms: string[][] = []
  const pages = Array.from({ length: PAGES }, (_, i): ContentPage => {
    const first = names[2 * i]!
    const second = names[2 * i + 1]!
    const capital = (word: string): string => word[0]!.toUpperCase() + word.slice(1)
    const latin =
      i % 2 === 0 ? `${capital(first)} ${capital(second)}` : `${capital(first)}${capital(second)}`
    const okuri = okurigana[i % okurigana.length]![0]!
    const kanji = synonymWords[i]!
    synonyms.push([kanji, `${first}${second}ware`])
    const title = `${katakana[i]}の${kanji}${okuri} ${latin}と${pick(JA_NOUNS)}`
    const sentences = Array.from(
      { length: between(10, 40) },
      () => `${pick(JA_NOUNS)}と${pick(KATAKANA)}を${pick(JA_NOUNS)}で試しました。`,
    )
    const id = `blog/variant-${i}`
    return {
      id,
      slug: `/${id}`,
      contentType: 'blog',
      fileSlug: `variant-${i}`,
      title,
      description: '',
      tags: [pick(JA_NOUNS)],
      createdAt: '2026-11-01',
      text: sentences.join(' '),
    }
  })
  const queries: LabelledQuery[] = []
  const add = (kind: VariantKind, make: (i: number) => string | null): void => {
    for (let tries = 0, made = 0; made < PER_KIND && tries < 20 * PER_KIND; tries++) {
      const i = Math.floor(random() * PAGES)
      const query = make(i)
      if (query) {
        queries.push({ kind, query, expected: pages[i]!.id })
        made++
      }
    }
  }
  add('hiragana for katakana', (i) => toHiragana(katakana[i]!))
  add('half-width katakana', (i) => toHalfWidth(katakana[i]!))
  add('long vowel', (i) => {
    const word = katakana[i]!
    return word.endsWith('ー') ? word.slice(0, -1) : `${word}ー`
  })
  add('okurigana', (i) => {
    const group = okurigana[i % okurigana.length]!
    // why: the okurigana word inside a compound of the page's own (茶湯器申し込み → 茶湯器申込)
    return `${synonymWords[i]}${pick(group.slice(1))}`
  })
  add('Latin case', (i) => `${names[2 * i]!.toUpperCase()} ${names[2 * i + 1]!.toUpperCase()}`)
  add('Latin joined', (i) => (i % 2 === 0 ? `${names[2 * i]}${names[2 * i + 1]}` : null))
  add('Latin hyphenated', (i) => `${names[2 * i]}-${names[2 * i + 1]}`)
  add('camel-case part', (i) => (i % 2 === 1 ? names[2 * i + 1]! : null))
  add('transposition', (i) => {
    const word = names[2 * i]!
    if (word.length < 5) return null
    const at = between(1, word.length - 2)
    if (word[at] === word[at + 1]) return null
    return `${word.slice(0, at)}${word[at + 1]}${word[at]}${word.slice(at + 2)} ${names[2 * i + 1]}`
  })
  add('synonym', (i) => synonyms[i]![1]!)
  return { pages, synonyms, queries }
}

/** hit@10 and MRR per kind over the labelled corpus. */
export async function benchVariants(): Promise<void> {
  progress('search: variants corpus', 0, 1)
  const { pages, synonyms, queries } = variantCorpus()
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const data = searchDataInMemory(searchDataOf(pages, index, 'variants').bytes)
  const search = createSiteSearch(() => data, { formatVersion: 'variants' })
  const alternatives = combineAlternatives([
    alternativesFinder(keyedGroups(SPELLING_VARIANTS)),
    alternativesFinder(keyedGroups(synonyms)),
  ])
  console.log(
    `\nSpelling variants (${PAGES} generated pages, ${PER_KIND} known-item queries per kind):`,
  )
  console.log('kind                    hit@10   MRR')
  let allHits = 0
  let allReciprocal = 0
  for (const [done, kind] of VARIANT_KINDS.entries()) {
    progress('search: variant kinds', done, VARIANT_KINDS.length)
    const ofKind = queries.filter((query) => query.kind === kind)
    let hits = 0
    let reciprocal = 0
    for (const { query, expected } of ofKind) {
      const ids = (await search.search(normalizeQuery(query), 200, alternatives)).results.map(
        (result) => result.id,
      )
      const rank = ids.indexOf(expected)
      if (rank >= 0 && rank < 10) hits++
      if (rank >= 0) reciprocal += 1 / (rank + 1)
    }
    allHits += hits
    allReciprocal += reciprocal
    console.log(
      `${kind.padEnd(22)}  ${`${((100 * hits) / ofKind.length).toFixed(0)} %`.padStart(6)}  ${(reciprocal / ofKind.length).toFixed(3)}`,
    )
  }
  figure('variants: hit@10, all kinds', (100 * allHits) / queries.length, '%')
  figure('variants: MRR, all kinds', allReciprocal / queries.length, '')
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchVariants()
}
