/**
 * What readings cost an instance: the generated site built twice by the same code, with readings
 * and with an analyser that reads nothing (an empty `readings` section), and the two search
 * functions' cold starts and full answers taken in turn, A B B A …, so that other work on the
 * machine weighs on both alike. Prints each figure's medians and the median of the pairs'
 * ratios (readings on ÷ off). `npm run bench readings-cost` (2,000 and 20,000 pages), or
 * `tsx bench/bench-search-readings-cost.ts [pages …]`; a plain `npm run bench` leaves it out (it
 * builds each site twice).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildSiteContent } from '../src/build/siteContent.js'
import { SEARCH_DATA_PATH } from '../src/lib/search/index/searchDataFile.js'
import { generatedSite } from './bench-search-corpus.js'
import {
  bundleSearchFunction,
  coldStartTimes,
  firstAnswerScript,
  latencyProcess,
} from './bench-search-process.js'
import { progress } from './benchReport.js'

const COLD_PAIRS = 21
const LATENCY_PAIRS = 7
const QUERIES = ['珈琲豆', 'tokoname', '予約商品 ドリッパー']
const SIDES = ['on', 'off'] as const
type Side = (typeof SIDES)[number]

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** A and B in turn, the order swapped every pair. */
function paired(pairs: number, measure: (side: Side) => number[]): Record<Side, number[][]> {
  const taken: Record<Side, number[][]> = { on: [], off: [] }
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? SIDES : ([...SIDES].reverse() as Side[])
    for (const side of order) taken[side].push(measure(side))
  }
  return taken
}

function show(label: string, taken: Record<Side, number[][]>, at: number, digits: number): void {
  const on = taken.on.map((values) => values[at]!)
  const off = taken.off.map((values) => values[at]!)
  const ratios = on.map((value, i) => value / off[i]!)
  console.log(
    `${label.padEnd(40)} on ${median(on).toFixed(digits).padStart(8)}  off ${median(off).toFixed(digits).padStart(8)}  ` +
      `on ÷ off ${median(ratios).toFixed(2)} (pairs ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  )
}

async function readingsCost(pageCount: number): Promise<void> {
  const label = `readings cost, ${pageCount.toLocaleString('en-US')} pages`
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-readings-cost-'))
  try {
    const site = generatedSite()
    const contentDir = path.join(dir, 'content')
    await site.writeCorpus(contentDir, pageCount, (done) =>
      progress(`${label}: writing pages`, done, pageCount),
    )
    const built = {} as Record<Side, { bundle: string; dataFile: string }>
    for (const side of SIDES) {
      progress(`${label}: building`, side === 'on' ? 0 : 1, 2)
      // why: the deployed layout: the bundle two folders below the data file's src/generated
      const outFile = path.join(dir, side, path.dirname(SEARCH_DATA_PATH), 'siteContent.ts')
      const summary = await buildSiteContent({
        contentDir,
        outFile,
        measureIndexJson: false,
        ...(side === 'off' ? { analyser: Promise.resolve(() => []) } : {}),
      })
      const bundle = path.join(dir, side, 'netlify/functions/search.mjs')
      built[side] = {
        bundle: await bundleSearchFunction(bundle, outFile),
        dataFile: summary.dataFile,
      }
    }
    const queriesFile = path.join(dir, 'queries.json')
    await writeFile(queriesFile, JSON.stringify(site.benchQueries(200)))
    const loads: number[] = []
    const cold = QUERIES.map((query, i) => {
      progress(`${label}: cold starts`, i, QUERIES.length)
      const scripts = {
        on: firstAnswerScript(built.on.bundle, query),
        off: firstAnswerScript(built.off.bundle, query),
      }
      return paired(COLD_PAIRS, (side) => {
        loads.push(loadavg()[0]!)
        const { wall, cpu } = coldStartTimes(scripts[side], 1)
        return [wall, cpu]
      })
    })
    progress(`${label}: full answers`, 0, 1)
    const answers = paired(LATENCY_PAIRS, (side) => {
      loads.push(loadavg()[0]!)
      const { p50, p99 } = latencyProcess('answer', built[side].dataFile, queriesFile)
      return [p50, p99]
    })
    progress(`${label}: full answers`, 1, 1)
    console.log(
      `\nReadings on ÷ off, ${pageCount.toLocaleString('en-US')} pages (${COLD_PAIRS} pairs of cold ` +
        `starts per query, ${LATENCY_PAIRS} pairs of latency processes; load average ` +
        `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}):`,
    )
    for (const [i, query] of QUERIES.entries()) {
      show(`cold start ${query}, ms`, cold[i]!, 0, 1)
      show('  its CPU time (all threads), ms', cold[i]!, 1, 1)
    }
    show('full answer p50, ms', answers, 0, 3)
    show('full answer p99, ms', answers, 1, 3)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const sizes = process.argv.slice(2).map(Number)
  for (const size of sizes.length > 0 ? sizes : [2000, 20000]) await readingsCost(size)
}
