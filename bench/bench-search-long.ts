/**
 * Excerpt cost on long, mixed pages like a real blog's: `tsx bench/bench-search-long.ts`
 * generates pages of 5–30 K characters (Japanese and Latin prose, code blocks, URLs, full-width
 * ！？（）％, on a fifth of the pages ① ℃ ㈱) and compares the index search with the full answer (pages, excerpts,
 * highlighting), each in processes of their own. Run by bench-search.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import MiniSearch from 'minisearch'
import type { ContentPage } from '../src/build/search/contentPages.js'
import {
  SEARCH_INDEX_FORMAT,
  searchOptions,
  type IndexedPage,
} from '../src/lib/search/terms/indexOptions.js'
import { searchDataOf } from '../src/build/siteContent.js'
import { figure, progress, type Goal } from './benchReport.js'
import { JA_NOUNS, KATAKANA, seededRandom } from './bench-search-corpus.js'
import { latenciesApart } from './bench-search-process.js'

const PAGES = 600
const QUERIES = 120
const GOALS = {
  answerP99: { below: 5 },
  ratio: { below: 3 },
} satisfies Record<string, Goal>

const EN = (
  'the search index stores every page and answers queries quickly when shoppers type words ' +
  'deploy function bundle cache request response header token build script config module'
).split(' ')
const CODE = [
  'const answer = await fetch(`/api/search?q=${encodeURIComponent(query)}`)',
  "export default defineEndpoint({ methods: ['GET'], handle })",
  'npm run build && netlify deploy --prod',
  'for (const page of pages) index.add(page)',
]
const URLS = ['https://example.com/blog/2026/11/post', 'https://docs.example.jp/guide?ref=top#id']
const PUNCTUATION = ['！', '？', '（注）', '約５０％', '。', '、']
// why: characters NFKC expands, on a fifth of the pages (real blogs: a few such pages in ten)
const RARE = ['①', '20℃', '㈱']

/** Long mixed pages and queries made from their titles and bodies. */
function longCorpus(): { pages: ContentPage[]; queries: string[] } {
  const { random, pick, between } = seededRandom(20261125)
  const pages = Array.from({ length: PAGES }, (_, i): ContentPage => {
    const topic = pick(KATAKANA) + pick(JA_NOUNS)
    const marks = random() < 0.2 ? [...PUNCTUATION, ...RARE] : PUNCTUATION
    const title = `${topic}の${pick(JA_NOUNS)}と${pick(EN)} ${pick(KATAKANA)}`
    const target = between(5_000, 30_000)
    const parts: string[] = []
    let length = 0
    while (length < target) {
      const r = random()
      const part =
        r < 0.55
          ? `${pick(JA_NOUNS)}と${pick(KATAKANA)}について${pick(JA_NOUNS)}を試しました${pick(marks)}`
          : r < 0.8
            ? `The ${pick(EN)} ${pick(EN)} and ${pick(EN)} were ${pick(EN)}.`
            : r < 0.92
              ? `\n${pick(CODE)}\n`
              : `詳しくは ${pick(URLS)} をご覧ください。`
      parts.push(part)
      length += part.length
    }
    const id = `blog/long-${i}`
    return {
      id,
      slug: `/${id}`,
      contentType: 'blog',
      fileSlug: `long-${i}`,
      title,
      description: '',
      tags: [pick(JA_NOUNS)],
      createdAt: '2026-11-01',
      text: parts.join(' '),
    }
  })
  const queries = Array.from({ length: QUERIES }, (_, q) => {
    const page = pick(pages)
    const kinds = [
      () => page.title.split('の')[0]!,
      () => pick(JA_NOUNS),
      () => pick(KATAKANA),
      () => pick(EN),
      () => `${pick(JA_NOUNS)} ${pick(EN)}`,
      () => pick(KATAKANA).slice(0, 2),
    ]
    return kinds[q % kinds.length]!()
  })
  return { pages, queries }
}

/** Index search and full answer p50/p99 on the long pages, and their ratio. */
export async function benchLongPages(): Promise<void> {
  progress('search: long pages', 0, 3)
  const { pages, queries } = longCorpus()
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-long-'))
  try {
    const file = path.join(dir, 'site-search.bin')
    await writeFile(file, searchDataOf(pages, index, SEARCH_INDEX_FORMAT).bytes)
    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(queries))
    progress('search: long pages', 1, 3)
    const indexLatency = latenciesApart('index', file, queriesFile)
    progress('search: long pages', 2, 3)
    const answer = latenciesApart('answer', file, queriesFile)
    const kb = pages.reduce((sum, page) => sum + page.text.length, 0) / pages.length / 1024
    console.log(
      `\nLong mixed pages (${PAGES} pages of 5–30 K characters, ${kb.toFixed(1)} K on average; ${QUERIES} queries):`,
    )
    figure('long pages: index search p50', indexLatency.p50, 'ms')
    figure('long pages: index search p99', indexLatency.p99, 'ms')
    figure('long pages: full answer p50', answer.p50, 'ms')
    figure('long pages: full answer p99', answer.p99, 'ms', GOALS.answerP99)
    figure(
      'long pages: full answer / index search (p50)',
      answer.p50 / indexLatency.p50,
      '×',
      GOALS.ratio,
    )
  } finally {
    // why: BENCH_KEEP=1 keeps the data file and queries for profiling
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`)
    else await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await benchLongPages()
}
