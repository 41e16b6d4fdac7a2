/**
 * Paging benchmark: N active reservations over 50 products in a local Blobs server
 * behind a proxy that adds 10 ms to every blob request. Through the real handler of
 * POST /api/admin-reservations-list, prints wall time and blob requests of a page of 50: cold
 * (a new instance, the record indexes built and folded), warm (first page, a page by cursor, a
 * search), for 1k and 10k records, and 100k with BENCH_PAGING_100K=1.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import type { Context } from '@netlify/functions'
import listHandler from '../netlify/functions/admin-reservations-list.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startLatencyProxy } from './latencyProxy.js'
import { figure, missedGoals, printGrowth, progress, type Figures } from './benchReport.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import { RECORDS_STORE, storeNameFor } from '../src/lib/storage/blobStore.js'
import { clearInstanceIndexes } from '../src/lib/storage/recordCollection.js'
import { rebuildIndexes } from '../src/lib/storage/listing/indexMaintenance.js'
import { openRepositories, reservationRepository } from '../src/lib/storage/repositories.js'
import type { Reservation } from '../src/lib/storage/records.js'

const SIZES = process.env.BENCH_PAGING_100K === '1' ? [1_000, 10_000, 100_000] : [1_000, 10_000]
const PRODUCTS = 50
const LATENCY_MS = 10
const TOKEN = 'bench'
const ADMIN = 'bench-admin-token'
const WARM = { below: 300 }
const WARM_REQUESTS = { below: 20 }
const COLD = { below: 1500 }

function contextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'bench-site', token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

const KANA = ['やまだ はなこ', 'たなか いちろう', 'すずき じろう', 'さとう さぶろう']

const DAY_MS = 86_400_000

function reservation(i: number): Reservation {
  const statuses = ['pending', 'confirmed', 'fulfilled', 'cancelled']
  return {
    id: `res_${String(i).padStart(6, '0')}-${crypto.randomUUID().slice(0, 8)}`,
    name: `${KANA[i % KANA.length]} ${i}`,
    email: `customer${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: statuses[i % 4],
    notes: i % 7 === 0 ? '店頭受け取り希望' : '',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    respondedAt: null,
  }
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-paging-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const direct = `http://127.0.0.1:${port}`
  const proxy = await startLatencyProxy(direct, LATENCY_MS)
  process.env.ADMIN_API_TOKEN = ADMIN
  const deferred: Promise<unknown>[] = []
  const context = {
    requestId: 'bench',
    deploy: { context: 'production' },
    waitUntil: (work: Promise<unknown>) => void deferred.push(work),
  } as unknown as Context

  async function page(body: object) {
    proxy.counter.requests = 0
    const started = performance.now()
    const response = await listHandler(
      new Request('http://localhost/api/admin-reservations-list', {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
      context,
    )
    const answer = (await response.json()) as { reservations: unknown[]; nextCursor: string }
    const ms = performance.now() - started
    const requests = proxy.counter.requests
    await Promise.all(deferred.splice(0))
    if (response.status !== 200 || answer.reservations.length === 0) {
      throw new Error(`the list answered ${response.status}`)
    }
    return { ms, requests, nextCursor: answer.nextCursor }
  }

  let seeded = 0
  const all: Figures[] = []
  for (const size of SIZES) {
    process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
    const store = getStore({ name: storeNameFor(RECORDS_STORE, 'production') })
    const fresh = Array.from({ length: size - seeded }, (_, i) => reservation(seeded + i))
    // why: written through the repository, as the service would (each with its index delta),
    // dated back so that the folds below settle every delta
    const writer = reservationRepository(store, {
      scope: 'bench-writer',
      now: () => Date.now() - DAY_MS,
    })
    await mapWithConcurrency(fresh, 64, async (record, index) => {
      await writer.create(record, record)
      if (index % 1000 === 0) progress(`seeding ${size} reservations`, index, fresh.length)
    })
    progress(`seeding ${size} reservations`, fresh.length, fresh.length)
    seeded = size
    const { store: records, indexes } = openRepositories(context)
    while (
      (await rebuildIndexes(records, indexes, {
        now: Date.now,
        deadline: Infinity,
        owner: 'bench',
      })) !== 'complete'
    );
    // why: folded on the real clock, a day after the writes, so that every seeded delta has
    // settled and is deleted (a cold page then reads the bases, not the last seconds' writes)
    const folder = reservationRepository(store, { scope: 'bench-folder' })
    for (let product = 0; product < PRODUCTS; product++) await folder.fold(`product-${product}`)
    process.env.NETLIFY_BLOBS_CONTEXT = contextFor(proxy.url)
    clearInstanceIndexes()

    const figures: Figures = {}
    const record = (name: string, value: number, unit: string, goal?: { below: number }) => {
      figures[name] = { value, unit, goal }
      figure(name, value, unit, goal, `${size} records: ${name}`)
    }
    console.log(
      `\n${size.toLocaleString('en-US')} active reservations, ${LATENCY_MS} ms per blob request`,
    )
    const cold = await page({ pageSize: 50 })
    record('cold page of 50: time', cold.ms, 'ms', COLD)
    record('cold page of 50: blob requests', cold.requests, '')
    const warm = await page({ pageSize: 50 })
    record('warm first page of 50: time', warm.ms, 'ms', WARM)
    record('warm first page of 50: blob requests', warm.requests, '', WARM_REQUESTS)
    const next = await page({ pageSize: 50, cursor: warm.nextCursor })
    record('warm page 2 by cursor: time', next.ms, 'ms', WARM)
    record('warm page 2 by cursor: blob requests', next.requests, '', WARM_REQUESTS)
    await page({ pageSize: 50, q: 'ヤマダ' })
    const search = await page({ pageSize: 50, q: 'ﾀﾅｶ ｲﾁﾛｳ' })
    record('warm search (kana) page: time', search.ms, 'ms', WARM)
    record('warm search (kana) page: blob requests', search.requests, '', WARM_REQUESTS)
    const product = await page({ pageSize: 50, productSlug: 'product-7' })
    record('warm one-product page: time', product.ms, 'ms', WARM)
    record('warm one-product page: blob requests', product.requests, '', WARM_REQUESTS)
    all.push(figures)
  }
  for (let index = 1; index < all.length; index++) {
    printGrowth(all[index - 1], all[index], `growth ${SIZES[index - 1]} → ${SIZES[index]}`)
  }
  if (missedGoals.length) console.log(`\nmissed: ${missedGoals.join('; ')}`)
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
