/**
 * Search benchmark: `tsx scripts/bench-search.ts`. Compares the tokenizers on the labelled query
 * set over `content/`, then measures build, index size, cold start and query latency on a
 * generated corpus of 2,000 pages against plain MiniSearch with default options. Prints figures;
 * asserts nothing.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import MiniSearch from 'minisearch'
import { searchQualityCases } from '../tests/search/searchQualityCases.js'
import {
  COMPARED_TOKENIZERS,
  type TokenizerName,
} from '../src/lib/search/build/comparisonTokenizers.js'
import { loadContentPages } from '../src/lib/search/build/contentPages.js'
import {
  createSearchOptions,
  searchOptions,
  type IndexedPage,
} from '../src/lib/search/terms/indexOptions.js'
import { SEARCH_DATA_PATH } from '../src/lib/search/index/searchDataFile.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import { bytesSource, decodeSiteSearchData } from '../src/lib/search/index/searchDataReader.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { buildSiteContent, searchDataOf } from './build-content.js'
import { baselineOptions, type Latency, type LatencyMode } from './bench-search-latency.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PAGE_COUNT = Number(process.env.BENCH_PAGES) || 2000
const QUERY_COUNT = 200
const COLD_START_RUNS = 7
const TOKENIZERS: TokenizerName[] = ['bigram', 'segmenter', 'segmenter+bigram']
// ---------- deterministic corpus ----------
let seed = 20261122
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
const between = (min: number, max: number): number => min + Math.floor(random() * (max - min + 1))

const JA_NOUNS = (
  '珈琲豆 焙煎 急須 煎茶 抹茶 茶碗 茶筅 鉄瓶 南部鉄器 常滑焼 美濃焼 波佐見焼 有田焼 新幹線 東京駅 ' +
  '京都 大阪 静岡 岩手 予約 入荷 再入荷 発送 送料 在庫 福袋 和菓子 羊羹 手ぬぐい 湯呑み 土瓶 茶葉 ' +
  '深蒸し 浅煎り 深煎り 酸味 苦味 香り 甘み 温度 季節 職人 窯元 工房 釉薬 陶器 磁器 食器 贈り物 ' +
  '限定 新商品 お知らせ 営業日 定休日 配送 梱包 品切れ 通知 登録 支払い 返品 交換 保存 冷凍庫 ' +
  '挽き目 水出し 蒸らし 注ぎ口 取っ手 容量 重さ 大きさ 産地 農園 精製 品種 一番茶 二番茶 番茶 ' +
  'ほうじ茶 玄米茶 紅茶 緑茶 朝食 週末 旅行 出張 お土産 店舗 催事 展示会 お客様 スタッフ 店長'
).split(' ')
const KATAKANA = (
  'ドリッパー サーバー ケトル マグカップ ミル フィルター ボトル ポット カップ ソーサー ' +
  'ブレンド シングルオリジン エスプレッソ カフェオレ ラテ ギフト ラッピング セット キャンペーン ' +
  'ポップアップストア オンラインショップ メール フォーム アンケート レシピ ワークショップ イベント'
).split(' ')
const JA_VERBS = (
  'しました ご用意しました 入荷しました お届けします おすすめします 販売します 再開しました ' +
  'ご紹介します 淹れてみました 選びました 作りました 始めました 仕上げました 試しました'
).split(' ')
const JA_FRAMES = [
  (a: string, b: string, v: string) => `${a}の${b}を${v}。`,
  (a: string, b: string, v: string) => `今週は${a}と${b}について${v}。`,
  (a: string, b: string, v: string) => `${a}に合う${b}を${v}。`,
  (a: string, b: string, v: string) => `当店では${a}を使った${b}を${v}。`,
  (a: string, b: string) => `${a}は${b}によって味わいが大きく変わります。`,
  (a: string, b: string) => `詳しくは「${a}と${b}」のページをご覧ください。`,
]
const EN_WORDS = (
  'coffee tea kettle teapot dripper roast beans grinder ceramic handmade workshop shipping order ' +
  'pre-order restock stock gift wrapping brew water temperature aroma sweet bitter acidity origin ' +
  'farm harvest season limited edition cast iron porcelain glaze kiln craftsman delivery tracking ' +
  'customer newsletter latte milk espresso filter paper cup mug plate bowl matcha sencha hojicha'
).split(' ')
const SYLLABLES =
  'ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo ya yu yo ra ri ru re ro wa'.split(
    ' ',
  )
const latinName = (): string => {
  const name = Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join('')
  return name[0]!.toUpperCase() + name.slice(1)
}

function japaneseText(chars: number): string {
  let text = ''
  while (text.length < chars) {
    const noun = random() < 0.25 ? pick(KATAKANA) : pick(JA_NOUNS)
    const other = random() < 0.3 ? pick(JA_NOUNS) + pick(JA_NOUNS) : pick(JA_NOUNS)
    text += pick(JA_FRAMES)(random() < 0.15 ? latinName() : noun, other, pick(JA_VERBS))
    if (random() < 0.12) text += '\n\n'
  }
  return text
}

function englishText(chars: number): string {
  let text = ''
  while (text.length < chars) {
    const words = Array.from({ length: between(8, 18) }, () =>
      random() < 0.08 ? latinName() : pick(EN_WORDS),
    )
    text += `${words.join(' ')}.${random() < 0.15 ? '\n\n' : ' '}`
  }
  return text[0]!.toUpperCase() + text.slice(1)
}

async function writeCorpus(dir: string): Promise<void> {
  const types = ['products', 'news', 'guides', 'faq', 'blog']
  for (let i = 0; i < PAGE_COUNT; i++) {
    const type = types[i % types.length]!
    const english = random() < 0.2
    // why: product, news and FAQ pages are short, guides and blog posts longer, a few very long
    const long = type === 'guides' || type === 'blog'
    const length =
      random() < 0.02 ? between(10000, 30000) : long ? between(1000, 5000) : between(300, 1500)
    const title = english
      ? `${latinName()} ${pick(EN_WORDS)} ${pick(EN_WORDS)}`
      : `${latinName()} ${pick(JA_NOUNS)}${pick(KATAKANA)} ${between(1, 9) * 100}ml`
    const body = english ? englishText(length) : japaneseText(length)
    const tags = english ? [pick(EN_WORDS), pick(EN_WORDS)] : [pick(JA_NOUNS), pick(KATAKANA)]
    const description = english ? englishText(120) : japaneseText(80)
    const source = `---\ntitle: ${JSON.stringify(title)}\ndescription: ${JSON.stringify(description)}\ntags: ${JSON.stringify(tags)}\ncreatedAt: 2026-0${between(1, 9)}-1${between(0, 9)}\n---\n\n## ${pick(JA_NOUNS)}\n\n${body}\n`
    await mkdir(path.join(dir, type), { recursive: true })
    await writeFile(path.join(dir, type, `page-${i}.md`), source)
  }
}

function benchQueries(): string[] {
  const queries: string[] = []
  while (queries.length < QUERY_COUNT) {
    const kind = queries.length % 8
    const noun = pick(JA_NOUNS)
    if (kind === 0) queries.push(noun)
    else if (kind === 1)
      queries.push(noun.slice(1) || noun) // piece of a compound
    else if (kind === 2) queries.push(pick(KATAKANA))
    else if (kind === 3) queries.push(pick(EN_WORDS))
    else if (kind === 4)
      queries.push(pick(EN_WORDS).slice(0, 4)) // prefix
    else if (kind === 5)
      queries.push(pick(EN_WORDS).replace(/[aeiou]/, 'x')) // typo
    else if (kind === 6) queries.push(`${latinName()} ${pick(JA_NOUNS)}`)
    else queries.push(`${noun} ${pick(KATAKANA)}`)
  }
  return queries
}

// ---------- measuring ----------
const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`
const ratio = (ours: number, base: number): string => `${(ours / base).toFixed(2)}×`
/** p50/p99 measured in a process of its own (bench-search-latency.ts). */
function latenciesApart(mode: LatencyMode, file: string, queriesFile: string): Latency {
  const output = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'scripts/bench-search-latency.ts'),
      mode,
      file,
      queriesFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return JSON.parse(output.toString()) as Latency
}

/**
 * Blobs configured as on Netlify, but at a closed local port: the keyword log write starts as
 * in production and fails later, outside the clock (the script exits after the answer).
 * why: without it the store's missing-environment error was thrown and logged inside the first
 * answer in about half the runs (+13 ms), which no deployed function does
 */
const BENCH_BLOBS_CONTEXT = Buffer.from(
  JSON.stringify({
    siteID: 'bench',
    token: 'bench',
    edgeURL: 'http://127.0.0.1:9',
    uncachedEdgeURL: 'http://127.0.0.1:9',
  }),
).toString('base64')

/** Median over fresh `node` processes of importing `bundle` and answering one request. */
function coldStart(script: string): number {
  const runs = Array.from({ length: COLD_START_RUNS }, () =>
    Number(
      // why: a cwd outside the project, so the bundle finds its data file as deployed
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: tmpdir(),
        env: { ...process.env, NETLIFY_BLOBS_CONTEXT: BENCH_BLOBS_CONTEXT },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
        .toString()
        .trim(),
    ),
  ).sort((a, b) => a - b)
  return runs[Math.floor(runs.length / 2)]!
}

async function compareTokenizers(): Promise<void> {
  const pages = await loadContentPages(path.join(REPO_ROOT, 'content'))
  console.log(`\nTokenizers on the labelled set (${searchQualityCases.length} queries, content/):`)
  console.log('tokenizer          top-1  top-3  MRR    index')
  for (const name of [...TOKENIZERS, 'minisearch default']) {
    const baselineRow = name === 'minisearch default'
    const options = baselineRow
      ? baselineOptions
      : createSearchOptions(COMPARED_TOKENIZERS[name as TokenizerName])
    const index = new MiniSearch<IndexedPage>(options)
    index.addAll(pages)
    const search = baselineRow
      ? null
      : createSiteSearch(
          () => decodeSiteSearchData(bytesSource(searchDataOf(pages, index, name).bytes)),
          options,
          name,
        )
    const ids = (query: string): string[] =>
      search
        ? search.search(normalizeQuery(query), 200).results.map((result) => result.id)
        : index.search(query).map((hit) => String(hit.id))
    let top1 = 0
    let top3 = 0
    let reciprocal = 0
    for (const { query, expected } of searchQualityCases) {
      const rank = ids(query).indexOf(expected)
      if (rank === 0) top1++
      if (rank >= 0 && rank < 3) top3++
      if (rank >= 0) reciprocal += 1 / (rank + 1)
    }
    const n = searchQualityCases.length
    console.log(
      `${name.padEnd(18)} ${String(top1).padStart(5)}  ${`${top3}/${n}`.padStart(5)}  ${(reciprocal / n).toFixed(3)}  ${kb(JSON.stringify(index).length)}`,
    )
  }
}

async function benchCorpus(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-search-'))
  try {
    await writeCorpus(path.join(dir, 'content'))
    const pages = await loadContentPages(path.join(dir, 'content'))
    const textBytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.text), 0)
    console.log(
      `\nCorpus: ${pages.length} pages, ${kb(textBytes)} of text (20% English, 2% long articles)`,
    )

    console.log(`\nBuild time and index size per tokenizer (${PAGE_COUNT} pages):`)
    // why: BENCH_QUICK=1 skips this slowest part while iterating on the other figures
    const compared = process.env.BENCH_QUICK === '1' ? [] : [...TOKENIZERS, 'minisearch default']
    for (const name of compared) {
      const options =
        name === 'minisearch default'
          ? baselineOptions
          : createSearchOptions(COMPARED_TOKENIZERS[name as TokenizerName])
      const started = performance.now()
      const index = new MiniSearch<IndexedPage>(options)
      index.addAll(pages)
      const json = JSON.stringify(index)
      console.log(
        `  ${name.padEnd(18)} ${ms(performance.now() - started).padStart(9)}  ${kb(json.length).padStart(8)} raw  ${kb(gzipSync(json).length).padStart(7)} gzip`,
      )
    }

    // why: the deployed layout: the bundle two folders below the data file's src/generated
    const outFile = path.join(dir, path.dirname(SEARCH_DATA_PATH), 'siteContent.ts')
    const summary = await buildSiteContent({ contentDir: path.join(dir, 'content'), outFile })
    const oursStarted = performance.now()
    const wholeIndex = new MiniSearch<IndexedPage>(searchOptions)
    wholeIndex.addAll(pages)
    const oursBuild = performance.now() - oursStarted
    const serialized = JSON.stringify(wholeIndex)
    const baseStarted = performance.now()
    const baseline = new MiniSearch<IndexedPage>(baselineOptions)
    baseline.addAll(pages)
    const baselineJson = JSON.stringify(baseline)
    const baseBuild = performance.now() - baseStarted

    const bundle = await bundleSearchFunction(
      path.join(dir, 'netlify/functions/search.mjs'),
      outFile,
    )
    const baselineModule = path.join(dir, 'baseline.mjs')
    await writeFile(
      path.join(dir, 'baseline-entry.mjs'),
      `import MiniSearch from 'minisearch'\nexport const index = ${JSON.stringify(baselineJson)}\nexport { MiniSearch }\n`,
    )
    await build({
      entryPoints: [path.join(dir, 'baseline-entry.mjs')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: baselineModule,
      logLevel: 'error',
      nodePaths: [path.join(REPO_ROOT, 'node_modules')],
    })
    const oursCold = coldStart(firstAnswerScript(bundle))
    const oursImport = coldStart(importScript(bundle))
    // why: a Latin word walks the tree of all Latin terms for fuzzy matches; two words, 7 terms
    const coldLatin = coldStart(firstAnswerScript(bundle, 'tokoname'))
    const coldTwoWords = coldStart(firstAnswerScript(bundle, '予約商品 ドリッパー'))
    const baseCold = coldStart(
      runtimeWarmUp(baselineModule) +
        `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(baselineModule).href)}); const i = m.MiniSearch.loadJSON(m.index, { fields: ${JSON.stringify(baselineOptions.fields)} }); i.search('coffee'); console.log(performance.now() - t)`,
    )

    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(benchQueries()))
    const baselineFile = path.join(dir, 'baseline.json')
    await writeFile(baselineFile, baselineJson)
    const oursIndexOnly = latenciesApart('index', summary.dataFile, queriesFile)
    const oursFull = latenciesApart('answer', summary.dataFile, queriesFile)
    const base = latenciesApart('plain', baselineFile, queriesFile)
    const gz = (text: string): number => gzipSync(text).length

    console.log(
      `\nGoals: cold start < 50 ms, p50 < 1 ms, p99 < 5 ms (${QUERY_COUNT} queries × 5 rounds, ` +
        'each measured in a process of its own)',
    )
    console.log('figure                         ours        plain MiniSearch   ratio')
    const row = (label: string, a: number, b: number, format: (v: number) => string): void =>
      console.log(
        `${label.padEnd(30)} ${format(a).padStart(10)}  ${format(b).padStart(14)}   ${ratio(a, b).padStart(6)}`,
      )
    row('index build (addAll)', oursBuild, baseBuild, ms)
    row('index size (raw)', summary.indexBytes, baselineJson.length, kb)
    row('index size (gzip)', gz(serialized), gz(baselineJson), kb)
    row('cold start (import+1st query)', oursCold, baseCold, ms)
    row('query p50 (index search)', oursIndexOnly.p50, base.p50, ms)
    row('query p99 (index search)', oursIndexOnly.p99, base.p99, ms)
    const dataBytes = readFileSync(summary.dataFile)
    console.log(
      `full build (read ${PAGE_COUNT} pages, index, write files): ${ms(summary.milliseconds)}; ` +
        `search data file ${kb(dataBytes.length)} (gzip ${kb(gzipSync(dataBytes).length)}, ` +
        `index and pages), generated module ${kb(summary.moduleBytes)}`,
    )
    console.log(
      `cold start, first query 'tokoname': ${ms(coldLatin)}; '予約商品 ドリッパー': ${ms(coldTwoWords)}`,
    )
    console.log(
      `cold start, import only: ${ms(oursImport)}; full answer with excerpts and highlighting: p50 ${ms(oursFull.p50)}, p99 ${ms(oursFull.p99)}`,
    )
  } finally {
    // why: BENCH_KEEP=1 keeps the corpus, generated module and bundle for profiling
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`)
    else await rm(dir, { recursive: true, force: true })
  }
}

/** The search function as Netlify bundles it; `content` replaces the generated module. */
async function bundleSearchFunction(bundle: string, content: string | null): Promise<string> {
  await build({
    entryPoints: [path.join(REPO_ROOT, 'netlify/functions/search.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    plugins: content
      ? [
          {
            name: 'bench-content',
            setup(b) {
              b.onResolve({ filter: /generated\/siteContent\.js$/ }, () => ({ path: content }))
            },
          },
        ]
      : [],
  })
  return bundle
}

/**
 * What a function runtime has done before it imports the handler's module: imported its own
 * bootstrap module (Node's loader of module files starts up, ~5 ms), built a Request, read a
 * Response's text and opened stdio (Node loads its fetch classes, ~6 ms for the first text
 * body). Both cost any function the same, so they stay outside the clock.
 */
const runtimeWarmUp = (bundle: string): string => {
  const bootstrap = path.join(path.dirname(bundle), 'runtime-bootstrap.mjs')
  writeFileSync(bootstrap, 'export {}\n')
  return (
    `await import(${JSON.stringify(pathToFileURL(bootstrap).href)}); ` +
    `await new Response(new Request('http://localhost/', { method: 'POST', body: '{}' }).body, { headers: { 'Content-Type': 'text/plain' } }).text(); process.stdout; process.stderr; `
  )
}

const importScript = (bundle: string): string =>
  runtimeWarmUp(bundle) +
  `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(performance.now() - t)`

/** Import, then answer one real Request (which reads the data file and searches). */
const firstAnswerScript = (bundle: string, query = '珈琲豆'): string =>
  runtimeWarmUp(bundle) +
  `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); ` +
  `const r = await m.default(new Request('http://localhost/api/search?q=' + encodeURIComponent(${JSON.stringify(query)})), ` +
  `{ requestId: 'bench', deploy: { context: 'dev' }, waitUntil() {} }); const body = await r.text(); const t2 = performance.now(); ` +
  `if (r.status !== 200 || !JSON.parse(body).results.length) throw new Error('no answer: ' + body); console.log(t2 - t); ` +
  // why: the failing keyword log write retries for ~25 s after the answer, all of it off the clock
  `process.exit(0)`

async function benchDeployedContent(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-search-site-'))
  try {
    const bundle = await bundleSearchFunction(path.join(dir, 'netlify/functions/search.mjs'), null)
    // why: as included_files places it in the function's archive
    await mkdir(path.join(dir, path.dirname(SEARCH_DATA_PATH)), { recursive: true })
    await copyFile(path.join(REPO_ROOT, SEARCH_DATA_PATH), path.join(dir, SEARCH_DATA_PATH))
    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(searchQualityCases.map((c) => c.query)))
    const full = latenciesApart('answer', path.join(dir, SEARCH_DATA_PATH), queriesFile)
    console.log(
      `\nDeployed content/ (src/generated, npm run build): cold start ${ms(coldStart(firstAnswerScript(bundle)))} ` +
        `(import ${ms(coldStart(importScript(bundle)))}), full answer p50 ${ms(full.p50)}, p99 ${ms(full.p99)}`,
    )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

await compareTokenizers()
await benchDeployedContent()
await benchCorpus()
