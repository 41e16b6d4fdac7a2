/**
 * Labelled sets drawn from realistic page titles (`bench/search-sets/*.json`), each among the
 * 2,000 pages of the generated site: `tsx bench/bench-search-titles.ts` prints hit@10 and MRR of
 * okurigana variants (the word in a title or only in a body, typed with the other okurigana;
 * with the variant table and with readings alone), Latin names typed joined (`kalitawave`), and
 * 2–4 character fragments of titles beside the MRR the titles' ambiguity allows. Run by
 * bench-search.ts. Deterministic: the same files and seed give the same queries.
 */
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { loadContentPages, type ContentPage } from '../src/build/search/contentPages.js'
import { loadReadingAnalyser } from '../src/build/search/wordReadings.js'
import { alternativesFinder, keyedGroups } from '../src/lib/search/query/searchAlternatives.js'
import type { SiteSearch } from '../src/lib/search/query/siteSearch.js'
import type { AlternativesOf } from '../src/lib/search/query/wordTerms.js'
import { SPELLING_VARIANTS } from '../src/lib/search/terms/spellingVariants.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { figure, progress } from './benchReport.js'
import { generatedSite, seededRandom } from './bench-search-corpus.js'
import { searchWithReadings } from './bench-search-readings.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SETS = path.join(REPO_ROOT, 'bench/search-sets')
const GENERATED_PAGES = 2000
const FRAGMENTS_PER_TITLE = 3

interface SetPage {
  title: string
  query?: string
  text?: string
}

interface LabelledQuery {
  query: string
  expected: string
  /** The MRR to expect from the titles alone (title ties); 1 where not computed. */
  best: number
}

const readSet = <T>(name: string): T => JSON.parse(readFileSync(path.join(SETS, name), 'utf8')) as T

function setPage(set: string, i: number, { title, text }: SetPage): ContentPage {
  const id = `${set}/page-${i}`
  return {
    id,
    slug: `/${id}`,
    contentType: set,
    fileSlug: `page-${i}`,
    title,
    description: '',
    tags: [],
    createdAt: '2026-11-01',
    text: text ?? `${title}について、お店のスタッフがご案内します。`,
  }
}

async function report(
  label: string,
  search: SiteSearch,
  queries: readonly LabelledQuery[],
  alternatives: AlternativesOf,
): Promise<void> {
  let hits = 0
  let reciprocal = 0
  let best = 0
  const missed: string[] = []
  for (const { query, expected, best: allowed } of queries) {
    const { results } = await search.search(normalizeQuery(query), 200, alternatives)
    const rank = results.findIndex((result) => result.id === expected)
    if (rank >= 0 && rank < 10) hits++
    else missed.push(query)
    if (rank >= 0) reciprocal += 1 / (rank + 1)
    best += allowed
  }
  const n = queries.length
  console.log(
    `${label.padEnd(44)} ${String(n).padStart(4)}  ${`${((100 * hits) / n).toFixed(1)} %`.padStart(7)}  ${(reciprocal / n).toFixed(3)}  ${(best / n).toFixed(3)}`,
  )
  if (missed.length > 0) console.log(`  not in the top 10: ${missed.slice(0, 12).join(', ')}`)
  figure(`${label}: hit@10`, (100 * hits) / n, '%')
  figure(`${label}: MRR`, reciprocal / n, '')
}

/** 2–4 character pieces of a title's Japanese runs, drawn with `random`. */
function fragmentsOf(title: string, random: () => number): string[] {
  const runs = normalizeQuery(title).match(/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]{2,}/gu)
  if (!runs) return []
  const found = new Set<string>()
  for (let tries = 0; tries < 40 && found.size < FRAGMENTS_PER_TITLE; tries++) {
    const run = runs[Math.floor(random() * runs.length)]!
    const length = Math.min(run.length, 2 + Math.floor(random() * 3))
    const from = Math.floor(random() * (run.length - length + 1))
    const fragment = run.slice(from, from + length)
    // why: nobody starts typing a word at a long-vowel mark, a small kana or ん
    if (!/^[ーッっャュョゃゅょァィゥェォぁぃぅぇぉんン]/u.test(fragment)) found.add(fragment)
  }
  return [...found]
}

/**
 * The reciprocal rank to expect from the titles alone: the `k` pages whose title holds the
 * fragment are alike to a ranker that knows only that, so the wanted one is at a uniformly random
 * place among them: (1/k)·(1 + 1/2 + … + 1/k).
 */
function titleTies(pages: readonly ContentPage[], fragment: string): number {
  const k = pages.filter((page) => normalizeQuery(page.title).includes(fragment)).length
  let sum = 0
  for (let i = 1; i <= k; i++) sum += 1 / i
  return k === 0 ? 1 : sum / k
}

/** hit@10 and MRR of the title sets among the generated site's pages. */
export async function benchTitleSets(): Promise<void> {
  progress('search: title sets', 0, 2)
  const analyse = await loadReadingAnalyser()
  const okurigana = readSet<{ pages: SetPage[] }>('okurigana.json').pages
  const joined = readSet<{ pages: SetPage[] }>('joined-latin.json').pages
  const titles = readSet<{ titles: string[] }>('title-fragments.json').titles
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-titles-'))
  try {
    await generatedSite().writeCorpus(path.join(dir, 'content'), GENERATED_PAGES)
    const generated = await loadContentPages(path.join(dir, 'content'))
    const okuriganaPages = okurigana.map((page, i) => setPage('okurigana', i, page))
    const joinedPages = joined.map((page, i) => setPage('joined', i, page))
    const titlePages = titles.map((title, i) => setPage('titles', i, { title }))
    const pages = [...generated, ...okuriganaPages, ...joinedPages, ...titlePages]
    const search = searchWithReadings(pages, analyse)
    progress('search: title sets', 1, 2)
    const labelled = (set: readonly SetPage[], setPages: readonly ContentPage[]) =>
      set.map(({ query }, i) => ({ query: query!, expected: setPages[i]!.id, best: 1 }))
    const inTitle = okurigana.flatMap((page, i) => (page.text ? [] : [i]))
    const inBody = okurigana.flatMap((page, i) => (page.text ? [i] : []))
    const okuriganaQueries = labelled(okurigana, okuriganaPages)
    const { random } = seededRandom(35)
    const fragmentQueries = titlePages.flatMap((page) =>
      fragmentsOf(page.title, random).map((fragment) => ({
        query: fragment,
        expected: page.id,
        best: titleTies(pages, fragment),
      })),
    )
    const variants = alternativesFinder(keyedGroups(SPELLING_VARIANTS))
    const none: AlternativesOf = () => []
    console.log(
      `\nTitle sets among ${GENERATED_PAGES.toLocaleString('en-US')} generated pages (bench/search-sets/):`,
    )
    console.log(`${'set'.padEnd(44)} ${'n'.padStart(4)}  hit@10   MRR    title ties`)
    await report(
      'okurigana in titles',
      search,
      inTitle.map((i) => okuriganaQueries[i]!),
      variants,
    )
    await report(
      'okurigana in bodies',
      search,
      inBody.map((i) => okuriganaQueries[i]!),
      variants,
    )
    await report('okurigana, readings alone (no variant table)', search, okuriganaQueries, none)
    await report('Latin words typed joined', search, labelled(joined, joinedPages), variants)
    await report('title fragments (2–4 characters)', search, fragmentQueries, variants)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  progress('search: title sets', 2, 2)
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchTitleSets()
}
