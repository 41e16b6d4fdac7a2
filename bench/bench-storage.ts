/**
 * Storage benchmark: 10,000 reservations over 50 products in a local BlobsServer behind a proxy
 * that adds 10 ms to every blob request (a network round trip on Netlify). Prints, for the admin
 * list and the stats, wall time and blob requests on a cold call, a warm call with nothing
 * changed, and a call after 10 records changed.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getStore } from '@netlify/blobs'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startLatencyProxy } from './latencyProxy.js'
import { collectStats } from '../src/lib/admin/statistics.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import { RECORDS_STORE, storeNameFor } from '../src/lib/storage/blobStore.js'
import { clearInstanceIndexes } from '../src/lib/storage/recordCollection.js'
import type { Reservation } from '../src/lib/storage/records.js'
import { openRepositories, reservationRepository } from '../src/lib/storage/repositories.js'

const RECORDS = 10_000
const PRODUCTS = 50
const LATENCY_MS = 10
const TOKEN = 'bench'
const DAY_MS = 86_400_000

function contextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'bench-site', token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

function reservation(i: number): Reservation {
  const statuses = ['pending', 'confirmed', 'fulfilled', 'cancelled']
  return {
    id: `res_${crypto.randomUUID()}`,
    name: `山田 太郎 ${i}`,
    email: `customer${i}@example.jp`,
    productSlug: `product-${i % PRODUCTS}`,
    status: statuses[i % 4],
    notes: i % 7 === 0 ? '店頭受け取り希望' : '',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    respondedAt: null,
  }
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-blobs-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const direct = `http://127.0.0.1:${port}`
  const proxy = await startLatencyProxy(direct, LATENCY_MS)

  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(direct)
  const seedStore = getStore({ name: storeNameFor(RECORDS_STORE, 'production') })
  const records = Array.from({ length: RECORDS }, (_, i) => reservation(i))
  const seedStarted = performance.now()
  // why: a shop's records accumulate over months; their journal entries are in old folders
  const seedRepository = reservationRepository(seedStore, {
    scope: 'bench-seed',
    now: () => Date.now() - 2 * DAY_MS,
  })
  await mapWithConcurrency(records, 64, (r) => seedRepository.create(r, r))
  console.log(
    `seeded ${RECORDS} reservations over ${PRODUCTS} products in ${Math.round(performance.now() - seedStarted)} ms`,
  )

  process.env.NETLIFY_BLOBS_CONTEXT = contextFor(proxy.url)
  const deferred: Promise<unknown>[] = []
  const context = {
    deploy: { context: 'production' },
    waitUntil: (work: Promise<unknown>) => void deferred.push(work),
  }

  const rows: string[][] = []
  async function measure(label: string, operation: 'list' | 'stats') {
    const repositories = openRepositories(context)
    proxy.counter.requests = 0
    const started = performance.now()
    if (operation === 'list') {
      const { records: list } = await repositories.reservations.list()
      list.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    } else {
      await collectStats(repositories)
    }
    const ms = performance.now() - started
    const requests = proxy.counter.requests
    await Promise.all(deferred.splice(0))
    const background = proxy.counter.requests - requests
    rows.push([label, operation, `${ms.toFixed(0)} ms`, String(requests), String(background)])
  }

  for (const operation of ['list', 'stats'] as const) {
    clearInstanceIndexes()
    // why: a cold start after another instance left a snapshot is the common production case
    await measure('cold instance, no snapshot blob yet', operation)
    await measure('warm instance, nothing changed', operation)
    clearInstanceIndexes()
    await measure('cold instance, snapshot blob present', operation)
    const store = getStore({ name: storeNameFor(RECORDS_STORE, 'production') })
    const writer = reservationRepository(store, {
      scope: 'bench-writer',
      now: () => Date.now() - 60_000,
    })
    const setStatus = (status: string) => (r: Reservation) => ({ ...r, status })
    for (const r of records.slice(0, 10)) await writer.update(r, setStatus('confirmed'))
    await measure('warm instance, 10 records changed', operation)
    clearInstanceIndexes()
    for (const r of records.slice(10, 20)) await writer.update(r, setStatus('cancelled'))
    await measure('cold instance, 10 records changed', operation)
    // why: each operation starts from scratch, as if the other had never run
    await store.delete('snapshots/reservations')
    await store.delete('snapshots/notify')
  }

  const header = ['call', 'operation', 'wall time', 'blob requests', 'after response']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ')
  console.log(`\nStorage: ${RECORDS} reservations, ${LATENCY_MS} ms per blob request`)
  console.log(line(header))
  for (const row of rows) console.log(line(row))
  console.log('goal: warm list and stats under 300 ms and under 50 blob requests')

  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
