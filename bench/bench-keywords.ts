/**
 * Keyword analytics benchmark: 100,000 logged searches over the last 30 days in a local
 * BlobsServer behind a proxy that adds 10 ms to every blob request (a round trip on Netlify).
 * Prints wall time and blob requests of a 30-day summary counted from every entry (before
 * rollups), the scheduled function's first run that builds every rollup (a summary finding none
 * builds them the same way), a summary once they exist, and an hourly run once up to date. Entries are written straight into the server's
 * folder (what a PUT would store), so seeding takes seconds, not the hours 100,000 PUTs would.
 */
import http from 'node:http'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { BlobsServer } from '@netlify/blobs/server'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import { rollUpClosedPeriods } from '../src/lib/search/analytics/keywordRollups.js'
import { summarizeSearchKeywords } from '../src/lib/search/analytics/searchAnalytics.js'
import { normalizeQuery } from '../src/lib/search/textNormalization.js'
import { KEYWORD_LOGS_STORE, storeNameFor } from '../src/lib/storage/blobStore.js'
import {
  keywordLogKey,
  openKeywordLogRepository,
  type KeywordLogEntry,
} from '../src/lib/storage/keywordLogRepository.js'

const SEARCHES = 100_000
const DAYS = 30
const QUERIES = 2_000
const LATENCY_MS = 10
const TOKEN = 'bench'
const SITE = 'bench-keywords'
const DAY_MS = 86_400_000
/** 1M searches a month. */
const BUSY_PER_HOUR = 1_400

function contextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: SITE, token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

async function startLatencyProxy(target: string) {
  const counter = { requests: 0, writes: 0 }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  const server = http.createServer((req, res) => {
    counter.requests += 1
    if (req.method === 'PUT') counter.writes += 1
    setTimeout(() => {
      const headers = { ...req.headers }
      delete headers.host
      const upstream = http.request(
        target + req.url,
        { method: req.method, headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      req.pipe(upstream)
    }, LATENCY_MS)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, counter, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** Searches spread over the last DAYS days; a few queries are frequent, most are rare. */
function searches(now: number): KeywordLogEntry[] {
  let seed = 42
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
  return Array.from({ length: SEARCHES }, () => {
    const rank = Math.floor(QUERIES ** random())
    return {
      keyword: rank % 3 === 0 ? `急須 ${rank}` : `Keyword ${rank}`,
      timestamp: new Date(now - Math.floor(random() * DAYS * DAY_MS)).toISOString(),
      resultCount: rank % 10 === 0 ? 0 : rank % 7,
    }
  })
}

/** Without rollups: list every day and count every entry (read only when its key lacks the search). */
async function countEveryEntry(now: number) {
  const repository = openKeywordLogRepository({ deploy: { context: 'production' } })
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const days = Array.from({ length: DAYS }, (_, i) =>
    new Date(today - i * DAY_MS).toISOString().slice(0, 10),
  )
  const keys = (await mapWithConcurrency(days, 10, (day) => repository.listKeys(`${day}/`))).flat()
  const entries = await mapWithConcurrency(keys, 50, (key) => repository.read(key))
  return entries.filter((entry) => entry && normalizeQuery(entry.keyword)).length
}

/** Writes entries straight into the server's folder under the keys append gives them. */
async function seedFiles(folder: string, entries: KeywordLogEntry[]) {
  const keys = entries.map((entry) => keywordLogKey(entry))
  for (const parent of new Set(keys.map((key) => dirname(key)))) {
    await mkdir(join(folder, parent), { recursive: true })
  }
  await mapWithConcurrency(entries, 64, (entry, i) =>
    writeFile(join(folder, keys[i]), JSON.stringify(entry)),
  )
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-keywords-'))
  const blobs = new BlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const proxy = await startLatencyProxy(`http://127.0.0.1:${port}`)
  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(proxy.url)

  const now = Date.now()
  const seedStarted = performance.now()
  // why: the server keeps a site store's blobs under entries/<site>/site:<store name>/<key>
  const storeName = `site:${storeNameFor(KEYWORD_LOGS_STORE, 'production')}`
  const storeFolder = join(directory, 'entries', SITE, storeName)
  await seedFiles(storeFolder, searches(now))
  console.log(
    `seeded ${SEARCHES} searches over ${DAYS} days in ${Math.round(performance.now() - seedStarted)} ms`,
  )

  const context = { deploy: { context: 'production' } }
  const rows: string[][] = []
  async function measure(label: string, run: () => Promise<unknown>) {
    proxy.counter.requests = 0
    proxy.counter.writes = 0
    const started = performance.now()
    const result = await run()
    const ms = performance.now() - started
    rows.push([
      label,
      `${ms.toFixed(0)} ms`,
      String(proxy.counter.requests),
      String(proxy.counter.writes),
    ])
    return result
  }

  const summary = () =>
    summarizeSearchKeywords(openKeywordLogRepository(context), {
      days: DAYS,
      limit: 20,
      now,
    })
  const raw = await measure('count every entry (keys carry the search: listings only)', () =>
    countEveryEntry(now),
  )
  await measure('backfill: scheduled function, first run', () =>
    rollUpClosedPeriods(openKeywordLogRepository(context), { now, budgetMs: Infinity }),
  )
  const warm = await measure('summary, rollups in place', summary)
  await measure('scheduled hourly run, up to date', () =>
    rollUpClosedPeriods(openKeywordLogRepository(context), { now }),
  )
  const totals = [raw, (warm as { totalSearches: number }).totalSearches]

  // Goal: at 1M searches a month (~1,400 an hour) an hourly run < 10 s. Worst run: the
  // one that closes a day (its last hour rolled from ~1,400 entries, 23 hour rollups summed).
  const busyFolder = join(
    directory,
    'entries',
    SITE,
    `site:${storeNameFor(KEYWORD_LOGS_STORE, 'busy')}`,
  )
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const busy = Array.from({ length: 25 * BUSY_PER_HOUR }, (_, i) => ({
    keyword: `Keyword ${i % 997}`,
    timestamp: new Date(today - DAY_MS + Math.floor((i * 3_600_000) / BUSY_PER_HOUR)).toISOString(),
    resultCount: i % 10 === 0 ? 0 : 3,
  }))
  await seedFiles(busyFolder, busy)
  const busyContext = { deploy: { context: 'busy' } }
  // earlier runs: every day of the last 90 and yesterday's hours up to 22:00 rolled
  await rollUpClosedPeriods(openKeywordLogRepository(busyContext), {
    now: today - 50 * 60_000,
    budgetMs: Infinity,
  })
  await measure(`1M/month: hourly run closing a day (${BUSY_PER_HOUR}/h; goal < 10 s)`, () =>
    rollUpClosedPeriods(openKeywordLogRepository(busyContext), { now: today + 3_600_000 }),
  )
  await measure(`1M/month: hourly run, one hour (${BUSY_PER_HOUR}/h; goal < 10 s)`, () =>
    rollUpClosedPeriods(openKeywordLogRepository(busyContext), { now: today + 7_200_000 }),
  )

  const header = ['run', 'wall time', 'blob requests', 'of which writes']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ')
  console.log(`\nKeyword analytics: ${SEARCHES} searches, ${LATENCY_MS} ms per blob request`)
  console.log(line(header))
  for (const row of rows) console.log(line(row))
  console.log(
    `totalSearches counted: ${totals.join(' / ')} (${new Set(totals).size === 1 ? 'same' : 'DIFFERENT'})`,
  )

  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
