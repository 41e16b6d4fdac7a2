/**
 * Search benchmark: `tsx bench/bench-search.ts` (part of `npm run bench`). Compares the
 * tokenizers on the labelled queries over `content/`, measures the deployed content, the ranking
 * on a generated labelled corpus (bench-search-ranking.ts), spelling variants per kind
 * (bench-search-variants.ts), reading queries (bench-search-readings.ts), excerpts on long mixed
 * pages (bench-search-long.ts), then build, size, cold start and query latency on a generated
 * site of 2,000 pages (against plain MiniSearch) and of 20,000 pages, and how each figure grows.
 * Prints figures marked against their goals; asserts nothing.
 * `BENCH_QUICK=1`: the 2,000-page figures and the ranking only (no tokenizer builds, no 20,000);
 * `BENCH_SIZES=20000`: only the generated site of that size (or sizes, comma-separated);
 * `BENCH_50K=1`: also a site of 50,000 pages (the package-size goal past INLINE_TEXT_BYTES).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import MiniSearch from 'minisearch'
import { searchQualityCases } from './searchQualityCases.js'
import { COMPARED_TOKENIZERS, type TokenizerName } from './comparisonTokenizers.js'
import { loadContentPages } from '../src/build/search/contentPages.js'
import { SEARCH_DATA_PATH } from '../src/lib/search/index/searchDataFile.js'
import { INLINE_TEXT_BYTES, SEARCH_TEXT_FOLDER } from '../src/lib/search/index/searchText.js'
import { searchDataInMemory } from './searchDataInMemory.js'
import { createSiteSearch } from '../src/lib/search/query/siteSearch.js'
import {
  createSearchOptions,
  searchOptions,
  type IndexedPage,
} from '../src/lib/search/terms/indexOptions.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { buildSiteContent, searchDataOf } from '../src/build/siteContent.js'
import {
  figure,
  formatValue,
  missedGoals,
  printGrowth,
  progress,
  type Figures,
  type Goal,
} from './benchReport.js'
import { generatedSite } from './bench-search-corpus.js'
import { baselineOptions, STAFF_SIZED_SYNONYMS } from './bench-search-latency.js'
import { SUGGEST_DATA_PATH } from '../src/lib/search/suggest/suggestData.js'
import {
  bundleSearchFunction,
  coldStart,
  baselineColdScript,
  coldStartTimes,
  firstAnswerScript,
  importScript,
  latenciesApart,
} from './bench-search-process.js'
import { benchRanking } from './bench-search-ranking.js'
import { benchVariants } from './bench-search-variants.js'
import { benchReadings } from './bench-search-readings.js'
import { benchLongPages } from './bench-search-long.js'
import { packagedSearchSize } from './bench-search-package.js'
import { tailAnswerCosts } from './bench-search-text.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const QUICK = process.env.BENCH_QUICK === '1'
const QUERY_COUNT = 200
const TOKENIZERS: TokenizerName[] = ['bigram', 'segmenter', 'segmenter+bigram']
const MB = 1024 * 1024

/** The goals of the search (docs/search.md, "Figures"). */
const GOALS = {
  coldStart: { below: 50 },
  indexP50: { below: 1 },
  indexP99: { below: 5 },
  answerP99: { below: 2 },
  // why: completions arrive while the shopper types, warm, on a site of 20,000 pages
  suggest: { below: 5 },
  // why: Netlify deploys a function as an AWS Lambda archive: 50 MB zipped, 250 MB unzipped
  zipped: { below: 50 },
  unzipped: { below: 250 },
} satisfies Record<string, Goal>

/**
 * What a shopper has typed when the widget asks for completions: the first one to three
 * characters of each query, and words only a synonym group knows (`syn1`, `syn12`).
 */
function suggestPrefixes(queries: readonly string[]): string[] {
  const prefixes = queries.flatMap((query) => [1, 2, 3].map((n) => [...query].slice(0, n).join('')))
  return [...new Set(prefixes), ...STAFF_SIZED_SYNONYMS.slice(0, 50).map(([, word]) => word!)]
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`

async function compareTokenizers(): Promise<void> {
  const pages = await loadContentPages(path.join(REPO_ROOT, 'content'))
  console.log(`\nTokenizers on the labelled set (${searchQualityCases.length} queries, content/):`)
  console.log('tokenizer          top-1  top-3  MRR    index')
  const names = [...TOKENIZERS, 'minisearch default']
  for (const [done, name] of names.entries()) {
    progress('search: tokenizers on content/', done, names.length)
    const baselineRow = name === 'minisearch default'
    const options = baselineRow
      ? baselineOptions
      : createSearchOptions(COMPARED_TOKENIZERS[name as TokenizerName])
    const index = new MiniSearch<IndexedPage>(options)
    index.addAll(pages)
    const search = baselineRow
      ? null
      : createSiteSearch(() => searchDataInMemory(searchDataOf(pages, index, name).bytes), {
          indexOptions: options,
          formatVersion: name,
        })
    const ids = async (query: string): Promise<string[]> =>
      search
        ? (await search.search(normalizeQuery(query), 200)).results.map((result) => result.id)
        : index.search(query).map((hit) => String(hit.id))
    let top1 = 0
    let top3 = 0
    let reciprocal = 0
    for (const { query, expected } of searchQualityCases) {
      const rank = (await ids(query)).indexOf(expected)
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

/**
 * Build, sizes, cold start and latency on a generated site of `pageCount` pages; with
 * `baseline`, plain MiniSearch beside it; with `tokenizers`, each compared tokenizer's build.
 */
async function benchCorpus(
  pageCount: number,
  { baseline, tokenizers }: { baseline: boolean; tokenizers: boolean },
): Promise<Figures> {
  const label = `search: ${pageCount.toLocaleString('en-US')} pages`
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-search-'))
  const figures: Figures = {}
  const show = (name: string, value: number, unit: string, goal?: Goal): void => {
    figures[name] = { value, unit, goal }
    figure(name, value, unit, goal, `${pageCount.toLocaleString('en-US')} pages, ${name.trim()}`)
  }
  try {
    const site = generatedSite()
    const contentDir = path.join(dir, 'content')
    await site.writeCorpus(contentDir, pageCount, (done) =>
      progress(`${label}: writing pages`, done, pageCount),
    )
    const pages = await loadContentPages(contentDir)
    const textBytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.text), 0)
    console.log(
      `\nGenerated site: ${pages.length} pages, ${kb(textBytes)} of text (20% English, 2% long articles)`,
    )
    if (tokenizers) {
      console.log(`Build time and index size per tokenizer (${pageCount} pages):`)
      const names = [...TOKENIZERS, 'minisearch default']
      for (const [done, name] of names.entries()) {
        progress(`${label}: building with each tokenizer`, done, names.length)
        const options =
          name === 'minisearch default'
            ? baselineOptions
            : createSearchOptions(COMPARED_TOKENIZERS[name as TokenizerName])
        const started = performance.now()
        const index = new MiniSearch<IndexedPage>(options)
        index.addAll(pages)
        const json = JSON.stringify(index)
        const took = formatValue(performance.now() - started, 'ms')
        console.log(
          `  ${name.padEnd(18)} ${took.padStart(10)}  ${kb(json.length).padStart(9)} raw  ${kb(gzipSync(json).length).padStart(8)} gzip`,
        )
      }
      progress(`${label}: building with each tokenizer`, names.length, names.length)
    }

    // why: the deployed layout: the bundle two folders below the data file's src/generated
    progress(`${label}: building the search data file`, 0, 1)
    const outFile = path.join(dir, path.dirname(SEARCH_DATA_PATH), 'siteContent.ts')
    const summary = await buildSiteContent({
      contentDir,
      outFile,
      measureIndexJson: baseline,
      onProgress: (stage, done, total) =>
        progress(`${label}: build: ${stage}`, done, stage === 'reading' ? pageCount : total),
    })
    progress(`${label}: building the search data file`, 1, 1)
    // why: the process's peak so far; with BENCH_SIZES=<one size> that is the build's
    const buildPeakRss = process.resourceUsage().maxRSS * 1024
    const bundle = await bundleSearchFunction(
      path.join(dir, 'netlify/functions/search.mjs'),
      outFile,
    )
    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(site.benchQueries(QUERY_COUNT)))

    const steps = baseline ? 10 : 8
    let step = 0
    const measure = <T>(what: string, run: () => T): T => {
      progress(`${label}: ${what}`, step++, steps)
      return run()
    }
    const cold = measure('cold starts', () => coldStartTimes(firstAnswerScript(bundle)))
    const coldImport = measure('cold starts', () => coldStart(importScript(bundle)))
    // why: a Latin word walks the tree of all Latin terms for fuzzy matches; two words, 7 terms
    const coldLatin = measure('cold starts', () => coldStart(firstAnswerScript(bundle, 'tokoname')))
    const coldTwoWords = measure('cold starts', () =>
      coldStart(firstAnswerScript(bundle, '予約商品 ドリッパー')),
    )
    const indexOnly = measure('query latency', () =>
      latenciesApart('index', summary.dataFile, queriesFile),
    )
    const full = measure('query latency', () =>
      latenciesApart('answer', summary.dataFile, queriesFile),
    )
    const prefixesFile = path.join(dir, 'prefixes.json')
    await writeFile(prefixesFile, JSON.stringify(suggestPrefixes(site.benchQueries(QUERY_COUNT))))
    const suggest = measure('query latency', () =>
      latenciesApart(
        'suggest',
        path.join(path.dirname(summary.dataFile), path.basename(SUGGEST_DATA_PATH)),
        prefixesFile,
      ),
    )
    const dataBytes = readFileSync(summary.dataFile)
    const bundleBytes = readFileSync(bundle)
    progress(`${label}: package size`, step++, steps)
    // why: zip-it-and-ship-it zips the function as a Netlify build does (a deflate estimate of
    // the data file and bundle said 44 MB where Netlify's packager made 50 MiB at 20,000 pages)
    const packaged = await packagedSearchSize(path.dirname(summary.dataFile))
    progress(`${label}: answers reading text shards`, step, steps)
    // why: a site under the text budget ships every text whole and reads no shard; the
    // 2,000-page one is also built split (budget 0) to show what answers reading shards cost
    const forcedSplit = summary.textShards === 0 && pageCount <= 2000
    const splitDir = forcedSplit ? path.join(dir, 'split', path.dirname(SEARCH_DATA_PATH)) : null
    if (splitDir) {
      await buildSiteContent({
        contentDir,
        outFile: path.join(splitDir, 'siteContent.ts'),
        measureIndexJson: false,
        inlineTextBytes: 0,
      })
    }
    const splitFile = splitDir ? path.join(splitDir, path.basename(SEARCH_DATA_PATH)) : null
    const textFile = summary.textShards > 0 ? summary.dataFile : splitFile
    const tail = textFile ? await tailAnswerCosts(textFile, site.benchQueries(QUERY_COUNT)) : null
    const shards = textFile ? textShardFiles(path.dirname(textFile)) : null
    if (!baseline) progress(`${label}: measuring`, steps, steps)

    console.log(
      `\n${pageCount.toLocaleString('en-US')} pages (${QUERY_COUNT} queries × 5 rounds, each figure in a ` +
        `process of its own; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores):`,
    )
    show('full build (read pages, index, write files)', summary.milliseconds / 1000, 's')
    show('  peak RSS of the process up to the build', buildPeakRss / MB, 'MB')
    show('cold start, first query 珈琲豆', cold.wall, 'ms', GOALS.coldStart)
    show('  its CPU time (all threads)', cold.cpu, 'ms')
    show('cold start, first query tokoname', coldLatin, 'ms', GOALS.coldStart)
    show('cold start, 予約商品 ドリッパー', coldTwoWords, 'ms', GOALS.coldStart)
    show('  of which import', coldImport, 'ms')
    show('query p50, index search', indexOnly.p50, 'ms', GOALS.indexP50)
    show('query p99, index search', indexOnly.p99, 'ms', GOALS.indexP99)
    show('full answer p50 (excerpts, highlighting)', full.p50, 'ms')
    show('full answer p99', full.p99, 'ms', GOALS.answerP99)
    show('suggest p50 (500 synonym groups)', suggest.p50, 'ms')
    show('suggest p99', suggest.p99, 'ms', GOALS.suggest)
    show('search data file', dataBytes.length / MB, 'MB')
    show('read at the first search (eager sections)', summary.eagerBytes / MB, 'MB')
    show('  bundle (esbuild, for the cold starts)', bundleBytes.length / MB, 'MB')
    show(
      'function package, unzipped (zip-it-and-ship-it)',
      packaged.unzipped / MB,
      'MB',
      GOALS.unzipped,
    )
    show('function package, zipped (zip-it-and-ship-it)', packaged.zipped / MB, 'MB', GOALS.zipped)
    show('page text (UTF-8; split past INLINE_TEXT_BYTES)', summary.textBytes / MB, 'MB')
    show(
      '  text shards written by the build (0: every text in the function)',
      summary.textShards,
      '',
    )
    if (tail && shards) {
      const of = forcedSplit ? 'built split (budget 0): ' : ''
      show(`${of}text shards published with the site`, shards.bytes / MB, 'MB')
      show('  shard files', shards.files, '')
      show(`${of}queries whose answer read shards (of ${tail.queries})`, tail.withShards, '')
      show('  shards read per such answer (fresh instance)', tail.shardsPerAnswer, '')
      show('  KB read per such answer', tail.bytesPerAnswer / 1024, 'KB')
      show('  its answer, shards over HTTP (local server), p50', tail.fetchedP50, 'ms')
      show('  its answer, shards over HTTP (local server), p99', tail.fetchedP99, 'ms')
      show('  its answer, shards from local files, p50', tail.localP50, 'ms')
      show('  the same instance again (shards kept), p50', tail.warmP50, 'ms')
    }

    if (baseline) {
      const baselineFile = path.join(dir, 'baseline.json')
      const oursStarted = performance.now()
      new MiniSearch<IndexedPage>(searchOptions).addAll(pages)
      const oursBuild = performance.now() - oursStarted
      const baseStarted = performance.now()
      const plain = new MiniSearch<IndexedPage>(baselineOptions)
      plain.addAll(pages)
      const baselineJson = JSON.stringify(plain)
      const baseBuild = performance.now() - baseStarted
      await writeFile(baselineFile, baselineJson)
      const baseScript = await baselineColdScript(dir, baselineJson, baselineOptions.fields)
      const baseCold = measure('plain MiniSearch', () => coldStart(baseScript))
      const base = measure('plain MiniSearch', () =>
        latenciesApart('plain', baselineFile, queriesFile),
      )
      console.log('\nAgainst plain MiniSearch (default tokenizer, its index in a JS module):')
      console.log('figure                         ours        plain MiniSearch   ratio')
      const row = (name: string, a: number, b: number, unit: string): void =>
        console.log(
          `${name.padEnd(30)} ${formatValue(a, unit).padStart(10)}  ${formatValue(b, unit).padStart(14)}   ${(a / b).toFixed(2).padStart(5)}×`,
        )
      row('index build (addAll)', oursBuild, baseBuild, 'ms')
      row('index size (raw)', (summary.indexBytes ?? 0) / 1024, baselineJson.length / 1024, 'KB')
      row('cold start (import+1st query)', cold.wall, baseCold, 'ms')
      row('query p50 (index search)', indexOnly.p50, base.p50, 'ms')
      row('query p99 (index search)', indexOnly.p99, base.p99, 'ms')
      progress(`${label}: measuring`, steps, steps)
    }
    return figures
  } finally {
    // why: BENCH_KEEP=1 keeps the corpus, generated module and bundle for profiling
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${dir}`)
    else await rm(dir, { recursive: true, force: true })
  }
}

/** The build's text shards beside the data file: how many files, how many bytes. */
function textShardFiles(generatedDir: string): { files: number; bytes: number } {
  const folder = path.join(generatedDir, SEARCH_TEXT_FOLDER)
  let files = 0
  let bytes = 0
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    files++
    bytes += statSync(path.join(entry.parentPath, entry.name)).size
  }
  return { files, bytes }
}

async function benchDeployedContent(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-search-site-'))
  try {
    progress('search: deployed content/', 0, 3)
    const bundle = await bundleSearchFunction(path.join(dir, 'netlify/functions/search.mjs'), null)
    // why: as included_files places it in the function's archive
    await mkdir(path.join(dir, path.dirname(SEARCH_DATA_PATH)), { recursive: true })
    await copyFile(path.join(REPO_ROOT, SEARCH_DATA_PATH), path.join(dir, SEARCH_DATA_PATH))
    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(searchQualityCases.map((c) => c.query)))
    const full = latenciesApart('answer', path.join(dir, SEARCH_DATA_PATH), queriesFile)
    progress('search: deployed content/', 1, 3)
    const cold = coldStart(firstAnswerScript(bundle))
    progress('search: deployed content/', 2, 3)
    const coldImport = coldStart(importScript(bundle))
    progress('search: deployed content/', 3, 3)
    console.log('\nDeployed content/ (src/generated, npm run build):')
    figure('cold start (import + first answer)', cold, 'ms', GOALS.coldStart)
    figure('  of which import', coldImport, 'ms')
    figure('full answer p50', full.p50, 'ms', GOALS.indexP50)
    figure('full answer p99', full.p99, 'ms', GOALS.answerP99)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

// why: BENCH_SIZES=20000 measures only the generated sites of those sizes (profiling one size)
const sizes = process.env.BENCH_SIZES?.split(',').map(Number) ?? null
if (!sizes) {
  await compareTokenizers()
  await benchDeployedContent()
  await benchRanking()
  await benchVariants()
  await benchReadings()
  await benchLongPages()
}
const measured: Array<[number, Figures]> = []
// why: a 50,000-page site takes minutes to write and build on this machine; BENCH_50K=1 adds it
const defaultSizes = QUICK
  ? [2000]
  : process.env.BENCH_50K === '1'
    ? [2000, 20000, 50000]
    : [2000, 20000]
for (const size of sizes ?? defaultSizes) {
  // why: plain MiniSearch and the tokenizer builds take minutes at 20,000 pages; 2,000 tell enough
  const compare = !QUICK && size <= 2000
  measured.push([size, await benchCorpus(size, { baseline: compare, tokenizers: compare })])
}
for (let i = 1; i < measured.length; i++) {
  const [[from, small], [to, large]] = [measured[i - 1]!, measured[i]!]
  printGrowth(
    small,
    large,
    `Growth from ${from.toLocaleString('en-US')} to ${to.toLocaleString('en-US')} pages (${to / from}× the pages):`,
  )
}
// why: a 50,000-page build takes ~15 minutes and 4 GB here; without it, the package at 50,000
// pages from the per-page bytes of the 2,000 → 20,000 growth (pages of the same kind), both
// with their text whole in the function
const [small, large] = [measured.find(([n]) => n === 2000), measured.find(([n]) => n === 20000)]
const whole = (figures: Figures) =>
  figures['  text shards written by the build (0: every text in the function)']!.value === 0
if (small && large && whole(small[1]) && whole(large[1]) && !measured.some(([n]) => n === 50000)) {
  const zipped = (figures: Figures) =>
    figures['function package, zipped (zip-it-and-ship-it)']!.value
  const text = (figures: Figures) =>
    figures['page text (UTF-8; split past INLINE_TEXT_BYTES)']!.value * MB
  const perPage = (zipped(large[1]) - zipped(small[1])) / 18000
  console.log(
    `\n50,000 pages, estimated (not built; BENCH_50K=1 builds it): ${(perPage * 1024 * 1024).toFixed(0)} bytes a page zipped with the text whole; ` +
      `${((text(large[1]) * 2.5) / 1e6).toFixed(0)} MB of text, ` +
      (text(large[1]) * 2.5 > INLINE_TEXT_BYTES
        ? 'over INLINE_TEXT_BYTES: the build splits it (docs/search.md: ~39 MiB zipped when built)'
        : 'under INLINE_TEXT_BYTES: kept whole'),
  )
  figure(
    'function package, zipped, 50,000 pages with the text whole (estimate)',
    zipped(large[1]) + perPage * 30000,
    'MB',
  )
}
const missed = [...new Set(missedGoals)]
if (missed.length) console.log(`\nGoals missed:\n  ${missed.join('\n  ')}`)
else console.log('\nEvery figure with a goal met it.')
