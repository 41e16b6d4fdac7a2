/**
 * Storage benchmark: N reservations + N subscriptions over 50 products, written
 * straight into a local Blobs server (old data without indexes), indexed by the background
 * rebuild, then read through a proxy that adds 10 ms to every blob request (a network round
 * trip on Netlify) and counts requests and bytes. Sizes 1k and 10k by default; 100k with
 * BENCH_STORAGE_100K=1 (slow: it writes 200,000 blobs), or the sizes listed in
 * BENCH_STORAGE_SIZES (`100000`). BENCH_UPDATES sets the delivery-sized
 * update run (default 50,000 updates of one product's subscriptions, folded per batch of 100).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getStore, type Store } from '@netlify/blobs'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startLatencyProxy } from './latencyProxy.js'
import { indexOldRecords, writeOldRecordFiles } from './oldRecordFiles.js'
import { collectStats } from '../src/lib/admin/statistics.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import { RECORDS_STORE, storeNameFor } from '../src/lib/storage/blobStore.js'
import { clearInstanceIndexes } from '../src/lib/storage/recordCollection.js'
import type { NotifySubscription, Reservation } from '../src/lib/storage/records.js'
import { openRepositories, subscriptionRepository } from '../src/lib/storage/repositories.js'

const PRODUCTS = 50
const LATENCY_MS = 10
const TOKEN = 'bench'
const SITE = 'bench-site'
const SIZES = process.env.BENCH_STORAGE_SIZES
  ? process.env.BENCH_STORAGE_SIZES.split(',').map(Number)
  : process.env.BENCH_STORAGE_100K
    ? [1_000, 10_000, 100_000]
    : [1_000, 10_000]
const UPDATES = Number(process.env.BENCH_UPDATES ?? 50_000)
const BATCH = 100
const SETTLE_STEP_MS = 11_000

function contextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: SITE, token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

function reservation(i: number): Reservation {
  const statuses = ['pending', 'confirmed', 'fulfilled', 'cancelled']
  return {
    id: `res_${String(i).padStart(7, '0')}-${crypto.randomUUID().slice(0, 8)}`,
    name: `山田 太郎 ${i}`,
    email: `customer${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: statuses[i % 4],
    notes: i % 7 === 0 ? '店頭受け取り希望' : '',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    respondedAt: null,
  }
}

function subscription(i: number): NotifySubscription {
  return {
    id: `ntf_${Date.UTC(2026, 0, 1) + i}-${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`,
    email: `subscriber${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: 'pending',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    notifiedAt: null,
  }
}

/** Peak RSS while `work` runs (sampled every 10 ms). */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  try {
    const result = await work()
    peak = Math.max(peak, process.memoryUsage().rss)
    return { result, peakMb: peak / 1024 / 1024 }
  } finally {
    clearInterval(timer)
  }
}

const rows: string[][] = []
const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`

async function benchSize(
  size: number,
  directory: string,
  direct: string,
  proxyUrl: string,
  proxy: Counter,
) {
  const deployContext = `bench-${size}`
  const context = {
    deploy: { context: deployContext },
    waitUntil: (work: Promise<unknown>) => void deferred.push(work),
  }
  const deferred: Promise<unknown>[] = []
  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
  const seed = getStore({ name: storeNameFor(RECORDS_STORE, deployContext) })
  const seedStarted = performance.now()
  // why: 200,000 blobs through HTTP take half an hour on this machine; the local server keeps
  // one file per blob (entries/{site}/site:{store}/{key}), so old data is written as files
  const root = join(
    directory,
    'entries',
    SITE,
    `site:${storeNameFor(RECORDS_STORE, deployContext)}`,
  )
  await writeOldRecordFiles(root, size, (i) => [reservation(i), subscription(i)])
  console.log(`${size}: wrote ${2 * size} records in ${ms(seedStarted)}`)

  // the background rebuild, as listing-rebuild-background runs it
  const rebuildStarted = performance.now()
  const { peakMb: rebuildRss } = await withPeakRss(() => indexOldRecords(context))
  const rebuildMs = performance.now() - rebuildStarted
  const largest = await largestIndexBlob(seed)
  rows.push(row(size, 'background rebuild (direct, no latency)', rebuildMs, null, rebuildRss))

  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(proxyUrl)
  async function measure(
    label: string,
    work: (r: ReturnType<typeof openRepositories>) => Promise<unknown>,
  ) {
    const repositories = openRepositories(context)
    const before = { ...proxy }
    const started = performance.now()
    const { peakMb } = await withPeakRss(() => work(repositories))
    const elapsed = performance.now() - started
    const delta = {
      requests: proxy.requests - before.requests,
      bytes: proxy.bytes - before.bytes,
      listedBytes: proxy.listedBytes - before.listedBytes,
    }
    await Promise.all(deferred.splice(0))
    rows.push(row(size, label, elapsed, delta, peakMb))
  }

  const oneProduct = (r: ReturnType<typeof openRepositories>) =>
    r.reservations.listProduct('product-7')
  const wholeList = (r: ReturnType<typeof openRepositories>) => r.reservations.list()
  const stats = (r: ReturnType<typeof openRepositories>) => collectStats(r)
  clearInstanceIndexes()
  await measure('cold one-product list', oneProduct)
  await measure('warm one-product list', oneProduct)
  clearInstanceIndexes()
  await measure('cold whole list', wholeList)
  await measure('warm whole list', wholeList)
  clearInstanceIndexes()
  await measure('cold stats', stats)
  await measure('warm stats', stats)

  if (size === 10_000 && UPDATES > 0) {
    // a delivery: UPDATES updates of one product's subscriptions, a fold after each batch
    process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
    // why: a delivery paces a batch a second; its folds delete deltas older than 10 s by the
    // writer's clock, which here moves 11 s a batch
    let clock = Date.now()
    const writer = subscriptionRepository(seed, { scope: 'bench-writer', now: () => clock })
    const { records } = await writer.listProduct('product-3')
    const updateStarted = performance.now()
    for (let done = 0; done < UPDATES; done += BATCH) {
      const batch = Array.from(
        { length: Math.min(BATCH, UPDATES - done) },
        (_, i) => records[(done + i) % records.length],
      )
      await mapWithConcurrency(batch, 50, async (s) => {
        const key = `notify/${s.productSlug}/${s.id}`
        await writer.index.announce(key)
        await seed.setJSON(key, {
          ...s,
          status: 'notified',
          notifiedAt: new Date(clock).toISOString(),
        })
      })
      clock += SETTLE_STEP_MS
      await writer.fold('product-3')
    }
    await writer.fold('product-3')
    console.log(
      `${size}: ${UPDATES} updates of one product, folded per ${BATCH}, in ${ms(updateStarted)}`,
    )
    process.env.NETLIFY_BLOBS_CONTEXT = contextFor(proxyUrl)
    const notifyList = (r: ReturnType<typeof openRepositories>) => r.subscriptions.list()
    await measure(`warm notify list after ${UPDATES} updates`, async (r) => {
      await notifyList(r)
    })
    clearInstanceIndexes()
    await measure(`cold notify list after ${UPDATES} updates`, notifyList)
    await measure(`warm notify list after ${UPDATES} updates (2nd)`, notifyList)
  }
  rows.push([String(size), 'largest index blob', '', '', kb(largest), '', ''])
}

interface Counter {
  requests: number
  bytes: number
  listedBytes: number
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`
}

function row(
  size: number,
  label: string,
  elapsed: number,
  cost: Counter | null,
  peakMb: number,
): string[] {
  return [
    String(size),
    label,
    `${elapsed.toFixed(0)} ms`,
    cost ? String(cost.requests) : '',
    cost ? kb(cost.bytes) : '',
    cost ? kb(cost.listedBytes) : '',
    `${peakMb.toFixed(0)} MB`,
  ]
}

async function largestIndexBlob(store: Store): Promise<number> {
  let largest = 0
  for await (const page of store.list({ prefix: 'index/', paginate: true })) {
    for (const { key } of page.blobs) {
      const text = await store.get(key, { type: 'text' })
      largest = Math.max(largest, Buffer.byteLength(text ?? ''))
    }
  }
  return largest
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-blobs-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const direct = `http://127.0.0.1:${port}`
  const proxy = await startLatencyProxy(direct, LATENCY_MS)
  for (const size of SIZES) await benchSize(size, directory, direct, proxy.url, proxy.counter)

  const header = [
    'records',
    'call',
    'wall time',
    'requests',
    'bytes read',
    'bytes listed',
    'peak RSS',
  ]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ')
  console.log(
    `\nStorage: N reservations + N subscriptions over ${PRODUCTS} products, ${LATENCY_MS} ms per blob request`,
  )
  console.log(line(header))
  for (const r of rows) console.log(line(r))
  console.log(
    'goals: no request rebuilds; a one-product list reads that product’s index; every index blob < 5 MB at 100k;\n' +
      `peak RSS of an admin function at 100k < 256 MB; a warm list after a 50k delivery < 20 requests and < 1 MB listed`,
  )
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
