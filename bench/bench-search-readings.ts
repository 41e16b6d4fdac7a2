/**
 * Readings on labelled sets: `tsx bench/bench-search-readings.ts` prints hit@10 and MRR of
 * queries typed as a kanji word's reading (hiragana, katakana, Hepburn romaji): every kanji word
 * of the sample products' titles (`content/`, its product expected), and every kanji noun of the
 * generated 2,000-page site (a page whose title holds the noun expected). Run by bench-search.ts.
 * Deterministic: the same content and seed give the same queries.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import MiniSearch from 'minisearch'
import { loadContentPages, type ContentPage } from '../src/build/search/contentPages.js'
import {
  kanjiWordReadings,
  loadReadingAnalyser,
  pageReadings,
  readingCorrections,
  uniqueReadings,
  type ReadingAnalyser,
} from '../src/build/search/wordReadings.js'
import { searchDataOf } from '../src/build/siteContent.js'
import { alternativesFinder, keyedGroups } from '../src/lib/search/query/searchAlternatives.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import { searchOptions, type IndexedPage } from '../src/lib/search/terms/indexOptions.js'
import { SPELLING_VARIANTS } from '../src/lib/search/terms/spellingVariants.js'
import { romajiToKana } from '../src/lib/search/terms/romaji.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { figure, progress } from './benchReport.js'
import { generatedSite, JA_NOUNS } from './bench-search-corpus.js'
import { searchDataInMemory } from './searchDataInMemory.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const KINDS = ['hiragana', 'katakana', 'romaji'] as const
const GENERATED_PAGES = 2000

interface LabelledQuery {
  kind: (typeof KINDS)[number]
  query: string
  /** Whether a result is one the query looks for. */
  wanted: (id: string, title: string) => boolean
}

const toHiragana = (text: string): string =>
  text.replace(/[\u30a1-\u30f6]/g, (char) => String.fromCharCode(char.charCodeAt(0) - 0x60))

// why: Hepburn as shoppers type it on a PC: long vowels written out (キュウス → kyuusu); the
// table is each plain syllable's spelling, later ones (Hepburn's shi, chi, tsu…) winning
const ROMAJI: Record<string, string> = {}
for (const consonant of ['', ...'kgsztdnhbpmyrw']) {
  for (const vowel of 'aiueo') {
    const kana = romajiToKana(consonant + vowel)
    if (kana?.length === 1 && !ROMAJI[kana]) ROMAJI[kana] = consonant + vowel
  }
}
for (const syllable of ['shi', 'chi', 'tsu', 'fu', 'ji', 'o', 'n']) {
  ROMAJI[romajiToKana(syllable)!] = syllable
}
ROMAJI['ヲ'] = 'o'

/** Katakana in Hepburn romaji (`キュウス` → `kyuusu`, `マッチャ` → `matcha`); null if it cannot. */
function hepburn(kana: string): string | null {
  let out = ''
  for (let i = 0; i < kana.length; i++) {
    const char = kana[i]!
    const next = kana[i + 1] ?? ''
    if (char === 'ッ') {
      const following = next ? hepburn(next) : null
      if (!following) return null
      out += following.startsWith('ch') ? 't' : following[0]
      continue
    }
    if (char === 'ー') {
      out += out.at(-1) ?? ''
      continue
    }
    let syllable = ROMAJI[char]
    if (syllable === undefined) return null
    if ('ャュョ'.includes(next) && next) {
      const vowel = { ャ: 'a', ュ: 'u', ョ: 'o' }[next as 'ャ']
      syllable = /^(sh|ch|j)/.test(syllable)
        ? syllable.slice(0, -1) + vowel
        : syllable.slice(0, -1) + 'y' + vowel
      i++
    }
    if (char === 'ン' && /^[aiueoy]/.test(ROMAJI[next] ?? '')) syllable = "n'"
    out += syllable
  }
  return out
}

function queriesOf(reading: string, wanted: LabelledQuery['wanted']): LabelledQuery[] {
  const romaji = hepburn(reading)
  return [
    { kind: 'hiragana', query: toHiragana(reading), wanted },
    { kind: 'katakana', query: reading, wanted },
    ...(romaji ? [{ kind: 'romaji' as const, query: romaji, wanted }] : []),
  ]
}

/** The pages' search, built as the build builds it, readings included. */
function searchOf(pages: readonly ContentPage[], analyse: ReadingAnalyser) {
  const corrections = readingCorrections(pages)
  const readings = uniqueReadings(
    pages.flatMap((page) => {
      const { title, tags, rest } = pageReadings(analyse, page, corrections, false)
      return [...title, ...tags.flat(), ...rest]
    }),
  )
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const data = searchDataInMemory(searchDataOf(pages, index, 'readings', Infinity, readings).bytes)
  return createSiteSearch(() => data, { formatVersion: 'readings' })
}

async function report(
  label: string,
  pages: readonly ContentPage[],
  queries: readonly LabelledQuery[],
  analyse: ReadingAnalyser,
): Promise<void> {
  const search = searchOf(pages, analyse)
  const alternatives = alternativesFinder(keyedGroups(SPELLING_VARIANTS))
  console.log(`\n${label}:`)
  console.log('kind        queries  hit@10   MRR')
  let allHits = 0
  let allReciprocal = 0
  const missed: string[] = []
  for (const kind of KINDS) {
    const ofKind = queries.filter((query) => query.kind === kind)
    let hits = 0
    let reciprocal = 0
    for (const { query, wanted } of ofKind) {
      const { results } = await search.search(normalizeQuery(query), 200, alternatives)
      const rank = results.findIndex((result) => wanted(result.id, result.title))
      if (rank >= 0 && rank < 10) hits++
      else missed.push(query)
      if (rank >= 0) reciprocal += 1 / (rank + 1)
    }
    allHits += hits
    allReciprocal += reciprocal
    console.log(
      `${kind.padEnd(10)}  ${String(ofKind.length).padStart(7)}  ${`${((100 * hits) / ofKind.length).toFixed(1)} %`.padStart(7)}  ${(reciprocal / ofKind.length).toFixed(3)}`,
    )
  }
  if (missed.length > 0) console.log(`not in the top 10: ${missed.slice(0, 12).join(', ')}`)
  figure(`${label}: hit@10, all kinds`, (100 * allHits) / queries.length, '%')
  figure(`${label}: MRR, all kinds`, allReciprocal / queries.length, '')
}

/** hit@10 and MRR of reading queries on the sample products and the generated site. */
export async function benchReadings(): Promise<void> {
  progress('search: readings', 0, 3)
  const analyse = await loadReadingAnalyser()
  const content = await loadContentPages(path.join(REPO_ROOT, 'content'))
  const corrections = readingCorrections(content)
  const productQueries = content
    .filter((page) => page.contentType === 'products')
    .flatMap((page) =>
      uniqueReadings(kanjiWordReadings(analyse, page.title, corrections)).flatMap(({ reading }) =>
        queriesOf(reading, (id) => id === page.id),
      ),
    )
  progress('search: readings', 1, 3)
  await report('readings, sample products’ title words', content, productQueries, analyse)

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-readings-'))
  try {
    await generatedSite().writeCorpus(path.join(dir, 'content'), GENERATED_PAGES)
    const pages = await loadContentPages(path.join(dir, 'content'))
    progress('search: readings', 2, 3)
    const nounQueries = JA_NOUNS.flatMap((noun) => {
      const whole = kanjiWordReadings(analyse, noun, new Map()).find(({ word }) => word === noun)
      return whole ? queriesOf(whole.reading, (_, title) => title.includes(noun)) : []
    })
    await report(
      `readings, kanji nouns of the ${GENERATED_PAGES.toLocaleString('en-US')}-page site`,
      pages,
      nounQueries,
      analyse,
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  progress('search: readings', 3, 3)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchReadings()
}
