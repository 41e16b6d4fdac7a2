/**
 * Admin memory benchmark (goal: peak RSS of any admin function at 100k ≤ 128 MB). N
 * reservations + N subscriptions over 50 products (every 10th archived) in a local Blobs server
 * run by this process, indexed by the background rebuild. Each admin function is packaged as a
 * Netlify build packages it (platform/functionPackages.ts), and each admin read runs cold, once,
 * in a fresh Node process through the package's entry point (bench/adminMemoryChild.mjs: its
 * own instance, a production context, 10 ms per blob request through a proxy), which reports its
 * own peak RSS (VmHWM: the high-water mark of its own memory since Node started), so neither the
 * Blobs server, the seed, this process nor a TypeScript loader is counted. A call answered
 * without reading (401) shows the floor every function starts from.
 *
 * Size: BENCH_MEMORY_SIZE (default 10,000; the goal is at 100,000). Seeding 100k writes 200,000
 * blobs and indexes them (minutes): BENCH_MEMORY_DATA names a folder kept between runs, seeded
 * once per size (a `bench-admin-memory-<size>.json` in it says so).
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { packageFunctionFolder } from '../platform/functionPackages.js'
import { figure, missedGoals, progress } from './benchReport.js'
import { COUNTERS_PATH, startLatencyProxy } from './latencyProxy.js'
import { indexOldRecords, writeOldRecordFiles } from './oldRecordFiles.js'
import { createExport, issueExportTicket } from '../src/lib/admin/listExports.js'
import { loadConfig } from '../src/lib/config.js'
import { RECORDS_STORE, storeNameFor } from '../src/lib/storage/blobStore.js'
import { ExportJobStore } from '../src/lib/storage/exportJobStore.js'
import type { NotifySubscription, Reservation } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'

const SIZE = Number(process.env.BENCH_MEMORY_SIZE ?? 10_000)
const PRODUCTS = 50
const LATENCY_MS = 10
const TOKEN = 'bench'
const SITE = 'bench-site'
const ADMIN = 'bench-admin-token'
const PREORDER = 'bench-preorder-token'
const GOAL = { atMost: 128 }
const WARM_CPU = { atMost: 50 }
const DEPLOY = 'production'
/** BENCH_MEMORY_ONLY=`page,overview`: only the calls whose names contain one of these. */
const ONLY = process.env.BENCH_MEMORY_ONLY?.split(',')

function contextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: SITE, token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

const KANA = ['やまだ はなこ', 'たなか いちろう', 'すずき じろう', 'さとう さぶろう']
const STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled']
const START = Date.UTC(2026, 0, 1)

function archived(i: number, createdAt: number) {
  return i % 10 === 9
    ? { isArchived: true, archivedAt: new Date(createdAt + 30 * 86_400_000).toISOString() }
    : {}
}

function reservation(i: number): Reservation {
  const at = START + i * 60_000
  return {
    id: `res_${String(i).padStart(7, '0')}-${(i * 2654435761).toString(16).slice(-8)}`,
    name: `${KANA[i % KANA.length]} ${i}`,
    email: `customer${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: STATUSES[i % 4],
    notes: i % 7 === 0 ? '店頭受け取り希望' : '',
    createdAt: new Date(at).toISOString(),
    respondedAt: null,
    ...archived(i, at),
  }
}

function subscription(i: number): NotifySubscription {
  const at = START + i * 60_000
  return {
    id: `ntf_${START + i}-${(i * 2654435761).toString(16).padStart(10, '0').slice(-10)}`,
    email: `subscriber${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: 'pending',
    createdAt: new Date(at).toISOString(),
    notifiedAt: null,
    ...archived(i, at),
  }
}

/** Writes the records as the local server's files (old data), then runs the background rebuild. */
async function seed(directory: string, direct: string): Promise<void> {
  const marker = join(directory, `bench-admin-memory-${SIZE}.json`)
  const done = await readFile(marker, 'utf8').catch(() => null)
  if (done) {
    console.log(`seeded data reused from ${directory} (${done.trim()})`)
    return
  }
  const started = performance.now()
  const root = join(directory, 'entries', SITE, `site:${storeNameFor(RECORDS_STORE, DEPLOY)}`)
  await writeOldRecordFiles(
    root,
    SIZE,
    (i) => [reservation(i), subscription(i)],
    (done) => progress(`writing ${2 * SIZE} records`, done, SIZE),
  )
  const written = performance.now()
  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
  const context = { deploy: { context: DEPLOY }, waitUntil: () => undefined }
  await indexOldRecords(context)
  const seconds = (at: number) => `${((at - started) / 1000).toFixed(0)} s`
  const note = `${2 * SIZE} records written in ${seconds(written)}, indexed by ${seconds(performance.now())}, ${new Date().toISOString()}`
  await writeFile(marker, `${note}\n`)
  console.log(`seeded: ${note}`)
}

interface Call {
  name: string
  /** Function file under netlify/functions. */
  file: string
  /** Measures the floor: the function loaded and one answer (401, no token) that reads no blob. */
  floor?: boolean
  body?: object
  token?: string
  /** Before the call: the export job to run (the background worker). */
  exportJob?: boolean
  /** The export's filters (with `exportJob`). */
  exportFilters?: { q?: string; status?: string }
  /** Also measure the same call again in the same process (warm: the instance keeps what it read). */
  warm?: boolean
  /** Goals of the cold call's blob requests and bytes read. */
  cold?: { requests: number; megabytes?: number }
}

const PAGE = { requests: 20, megabytes: 2 }
const AGGREGATE = { requests: 15 }

const CALLS: Call[] = [
  {
    name: 'function loaded, an answer that reads nothing (floor)',
    file: 'admin-reservations-list',
    token: '',
    floor: true,
  },
  { name: 'reservations: whole list', file: 'admin-reservations-list', body: {} },
  {
    name: 'reservations: page of 50',
    file: 'admin-reservations-list',
    body: { pageSize: 50 },
    warm: true,
    cold: PAGE,
  },
  { name: 'reservations: page 2 by cursor', file: 'admin-reservations-list', body: {}, cold: PAGE },
  {
    name: 'reservations: page of 50, status confirmed',
    file: 'admin-reservations-list',
    body: { pageSize: 50, status: 'confirmed' },
    cold: PAGE,
  },
  {
    name: 'reservations: one product, page of 50',
    file: 'admin-reservations-list',
    body: { pageSize: 50, productSlug: 'product-7' },
    warm: true,
    cold: PAGE,
  },
  {
    name: 'reservations: search page (q)',
    file: 'admin-reservations-list',
    body: { pageSize: 50, q: 'ﾀﾅｶ ｲﾁﾛｳ' },
    warm: true,
    cold: PAGE,
  },
  {
    name: 'reservations: one product, whole',
    file: 'admin-reservations-list',
    body: { productSlug: 'product-7' },
  },
  { name: 'notify: whole list', file: 'admin-notify-list', body: {} },
  { name: 'notify: page of 50', file: 'admin-notify-list', body: { pageSize: 50 }, cold: PAGE },
  {
    name: 'notify: search page (q, an address)',
    file: 'admin-notify-list',
    body: { pageSize: 50, q: 'subscriber4242@' },
    cold: PAGE,
  },
  {
    name: 'reservations: archive page 1 of 50',
    file: 'admin-reservations-archives-list',
    body: { page: 1, pageSize: 50 },
    token: PREORDER,
    cold: PAGE,
  },
  {
    name: 'notify: archive page 3 of 50',
    file: 'admin-notify-archives-list',
    body: { page: 3, pageSize: 50 },
    token: PREORDER,
    cold: PAGE,
  },
  { name: 'stats', file: 'admin-stats', body: {}, cold: AGGREGATE },
  { name: 'overview', file: 'admin-overview', body: { days: 30 }, cold: AGGREGATE },
  { name: 'CSV export worker (reservations)', file: 'admin-export-background', exportJob: true },
  {
    name: 'CSV export worker (reservations, q)',
    file: 'admin-export-background',
    exportJob: true,
    exportFilters: { q: 'たなか' },
  },
]

interface Measured {
  ms: number
  /** CPU time of the process during the call (user + system). */
  cpuMs: number
  requests: number
  bytes: number
}

interface ChildReport {
  status: number
  /** Bytes of the answer. */
  bytes: number
  /** SHA-256 of the answer (first 12 hex): two runs on the same data answer the same. */
  digest: string
  peakMb: number
  cold: Measured
  warm?: Measured
  nextCursor?: string
  error?: string
}

/** The environment of a packaged function: what Netlify would set for this site. */
const FUNCTION_ENV: Record<string, string> = {
  ADMIN_API_TOKEN: ADMIN,
  PREORDER_API_TOKEN: PREORDER,
  CONTEXT: DEPLOY,
}

/** The request of a call; the export worker's is for a job written now, as the start call writes it. */
async function requestOf(call: Call, cursor?: string): Promise<object> {
  let body: object = cursor ? { pageSize: 50, cursor } : (call.body ?? {})
  let token = call.token ?? ADMIN
  if (call.exportJob) {
    const context = { deploy: { context: DEPLOY }, waitUntil: () => undefined } as never
    const repositories = openRepositories(context)
    const job = await createExport(
      { list: 'reservations', ...call.exportFilters },
      {
        jobs: new ExportJobStore(repositories.store),
        repositories,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never,
        now: Date.now,
        actor: 'bench',
        start: async () => undefined,
      },
    )
    body = { exportId: job.id }
    token = issueExportTicket(job.id, loadConfig(FUNCTION_ENV), Date.now())
  }
  return {
    method: 'POST',
    url: `http://localhost/api/${call.file}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  }
}

/** Runs one call in a fresh Node process (bench/adminMemoryChild.mjs) against its package. */
function runChild(input: object): Promise<ChildReport> {
  return new Promise((done, fail) => {
    const worker = spawn(
      process.execPath,
      [resolve('bench', 'adminMemoryChild.mjs'), JSON.stringify(input)],
      {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? '', ...FUNCTION_ENV },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    worker.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    worker.on('error', fail)
    worker.on('close', (code) => {
      const line = out.split('\n').find((text) => text.startsWith('@@'))
      if (!line) return fail(new Error(`a measured call exited ${code} without a report:\n${out}`))
      done(JSON.parse(line.slice(2)) as ChildReport)
    })
  })
}

const megabytes = (bytes: number) => bytes / 1024 / 1024

async function main(): Promise<void> {
  const kept = process.env.BENCH_MEMORY_DATA
  const directory = kept ?? (await mkdtemp(join(tmpdir(), 'bench-memory-')))
  await mkdir(directory, { recursive: true })
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const direct = `http://127.0.0.1:${port}`
  await seed(directory, direct)
  const proxy = await startLatencyProxy(direct, LATENCY_MS)
  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
  const packages = await mkdtemp(join(tmpdir(), 'bench-memory-packages-'))
  const entries = new Map<string, string>()
  for (const [index, call] of CALLS.entries()) {
    if (
      entries.has(call.file) ||
      (ONLY && index > 0 && !ONLY.some((part) => call.name.includes(part)))
    )
      continue
    progress(
      'packaging the functions as Netlify does',
      entries.size,
      new Set(CALLS.map((c) => c.file)).size,
    )
    entries.set(call.file, await packageFunctionFolder(resolve('.'), call.file, packages))
  }
  console.log(
    `\nAdmin functions, each cold in a fresh process (some then warm): ${SIZE.toLocaleString('en-US')} reservations + ${SIZE.toLocaleString('en-US')} subscriptions, ${LATENCY_MS} ms per blob request`,
  )
  let cursor: string | undefined
  for (const [index, call] of CALLS.entries()) {
    const isPage2 = call.name.includes('page 2')
    if (isPage2 && !cursor) continue
    if (ONLY && index > 0 && !ONLY.some((part) => call.name.includes(part))) continue
    const report = await runChild({
      entry: entries.get(call.file),
      blobs: { url: proxy.url, token: TOKEN },
      siteID: SITE,
      deployContext: DEPLOY,
      counters: proxy.url + COUNTERS_PATH,
      request: await requestOf(call, isPage2 ? cursor : undefined),
      warm: call.warm === true,
    })
    if (call.name === 'reservations: page of 50') cursor = report.nextCursor
    if (call.floor) {
      figure(call.name, report.peakMb, 'MB')
      continue
    }
    const { cold, warm } = report
    console.log(
      `\n${call.name}: ${report.status}, ${(report.bytes / 1024).toFixed(1)} KB answered (sha ${report.digest})`,
    )
    figure('  peak RSS', report.peakMb, 'MB', GOAL, `${call.name}: peak RSS`)
    figure('  cold: wall time', cold.ms, 'ms')
    const goal = call.cold
    figure(
      '  cold: blob requests',
      cold.requests,
      '',
      goal && { atMost: goal.requests },
      `${call.name}: cold requests`,
    )
    figure(
      '  cold: bytes read',
      megabytes(cold.bytes),
      'MB',
      goal?.megabytes === undefined ? undefined : { atMost: goal.megabytes },
      `${call.name}: cold bytes read`,
    )
    if (warm) {
      figure('  warm: wall time', warm.ms, 'ms')
      figure('  warm: CPU', warm.cpuMs, 'ms', WARM_CPU, `${call.name}: warm CPU`)
      const product = call.name.includes('one product')
      figure(
        '  warm: blob requests',
        warm.requests,
        '',
        product ? { atMost: 2 } : undefined,
        `${call.name}: warm requests`,
      )
      figure(
        '  warm: bytes read',
        warm.bytes / 1024,
        'KB',
        product ? { atMost: 50 } : undefined,
        `${call.name}: warm bytes read`,
      )
    }
    if (report.error) console.log(`    answered: ${report.error}`)
  }
  console.log(
    `\ngoals at 100k: peak RSS ≤ ${GOAL.atMost} MB; a cold page ≤ ${PAGE.requests} requests and ≤ ${PAGE.megabytes} MB read; ` +
      `stats and overview ≤ ${AGGREGATE.requests} requests; a warm page ≤ ${WARM_CPU.atMost} ms CPU; ` +
      'a warm one-product page ≤ 2 requests and ≤ 50 KB',
  )
  if (missedGoals.length) console.log(`missed: ${missedGoals.join('; ')}`)
  await proxy.close()
  await blobs.stop()
  await rm(packages, { recursive: true, force: true })
  if (!kept) await rm(directory, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
