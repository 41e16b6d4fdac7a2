/**
 * `npm run bench stock`: what a stock update costs, with and without the automatic wave it may
 * start, and how long a signed webhook takes to reach the first e-mail.
 *
 * - In process, against the atomic local Blobs server behind a proxy that adds 10 ms to every
 *   blob request (a round trip on Netlify): blob requests and wall time of one stock update
 *   (admin source) that starts no wave, one that starts a wave of 3 without an e-mail provider
 *   (record-only: history + 3 subscribers marked), and one that starts a wave of 3 with Resend
 *   (job + history + the background delivery started; the platform's 202 answered locally).
 * - Over `npm start` (netlify dev, a local Resend stand-in): from POSTing a signed webhook that
 *   raises a product from 0 to 3 to the stand-in accepting the wave's first e-mail batch.
 * Figures are printed, never asserted; the machine is shared (load average printed).
 */
import http from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/lib/config.js'
import { createLogger } from '../src/lib/log.js'
import { listProducts } from '../src/lib/productCatalogue.js'
import { saveAutoNotice } from '../src/lib/stock/autoNotice.js'
import { applyStockLines } from '../src/lib/stock/stockUpdates.js'
import { runDueWave } from '../src/lib/stock/stockWaves.js'
import { openServices } from '../src/lib/services.js'
import type { NotifySubscription } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'
import { startDevServer } from '../platform/startDevServer.js'
import { startRecordingServer } from '../platform/recordingServer.js'
import { postStockEvent } from '../platform/stockSender.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startLatencyProxy } from './latencyProxy.js'

const LATENCY_MS = 10
const TOKEN = 'bench'
const WAITING = 20
const ROUNDS = 3
const SECRET = 'bench-stock-secret'
const ADMIN = 'bench-stock-admin'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]

function blobsContextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'bench-site', token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

/** The platform's answer to starting a background function: 202 at once. */
async function startPlatformStandIn() {
  const server = http.createServer((_req, res) => res.writeHead(202).end())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

async function inProcess(): Promise<string[][]> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-stock-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const proxy = await startLatencyProxy(`http://127.0.0.1:${port}`, LATENCY_MS)
  const platform = await startPlatformStandIn()
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(proxy.url)
  const log = { ...createLogger('bench'), info: () => undefined }
  const products = listProducts().map((product) => product.slug)
  let next = 0
  const rows: string[][] = []

  async function measure(label: string, email: boolean, rise: boolean) {
    const times: number[] = []
    const requests: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const productSlug = products[next++]
      const context = {
        requestId: `bench-${round}`,
        deploy: { context: `bench-${email}` },
        waitUntil: () => undefined,
      }
      // why: the bench runs on the wall clock, at any hour
      const env = email
        ? {
            QUIET_HOURS: 'off',
            RESEND_API_KEY: 're_bench',
            RESEND_FROM_EMAIL: 'shop@example.jp',
            UNSUBSCRIBE_SECRET: 's',
          }
        : { QUIET_HOURS: 'off' }
      const config = loadConfig(env, { context: 'dev', origin: platform.url })
      const repositories = openRepositories(context)
      for (let i = 0; i < WAITING; i++) {
        const subscription: NotifySubscription = {
          id: `ntf_${Date.now()}-${round}${i}`,
          email: `fan${i}@example.jp`,
          productSlug,
          status: 'pending',
          createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          notifiedAt: null,
        }
        await repositories.subscriptions.create(subscription, subscription)
      }
      await saveAutoNotice(
        { productSlug, enabled: rise, emailTitle: '{product} 再入荷', emailBody: '{url}' },
        repositories.stock,
      )
      const waves = openServices(context, config, log, { origin: platform.url }).waves()
      const update = (quantity: number) =>
        applyStockLines([{ productSlug, quantity }], {
          stock: waves.stock,
          log,
          now: Date.now,
          source: 'admin',
          startWave: (slug) => runDueWave(slug, waves),
        })
      await update(rise ? 0 : 5)
      // why: the listing caches of a warm instance, as a busy shop has them
      await repositories.subscriptions.listProduct(productSlug)
      proxy.counter.requests = 0
      const started = performance.now()
      await update(rise ? 3 : 6)
      times.push(performance.now() - started)
      requests.push(proxy.counter.requests)
    }
    rows.push([label, `${median(times).toFixed(0)} ms`, `${median(requests)}`])
  }

  await measure('stock update, no wave (5 → 6)', false, false)
  await measure('stock update + wave of 3, record-only', false, true)
  await measure('stock update + wave of 3, with Resend', true, true)
  await platform.close()
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
  return rows
}

async function webhookToFirstEmail(): Promise<number[]> {
  const resend = await startRecordingServer()
  const server = await startDevServer({
    ADMIN_API_TOKEN: ADMIN,
    PREORDER_API_TOKEN: '',
    RESEND_API_KEY: 're_bench',
    RESEND_FROM_EMAIL: 'shop@example.jp',
    RESEND_BASE_URL: resend.url,
    UNSUBSCRIBE_SECRET: 'bench-unsubscribe',
    STOCK_WEBHOOK_SECRET: SECRET,
  })
  const times: number[] = []
  try {
    const withSku = listProducts().filter((product) => product.sku)
    for (const [round, product] of withSku.slice(0, ROUNDS).entries()) {
      for (let i = 0; i < 5; i++) {
        await server.postJson('/api/notify-signup', {
          email: `bench-${round}-${i}@example.jp`,
          productSlug: product.slug,
        })
      }
      await server.postJson(
        '/api/admin/notify/auto',
        { productSlug: product.slug, enabled: true, emailTitle: '{product}', emailBody: '{url}' },
        ADMIN,
      )
      await postStockEvent(server.url, SECRET, {
        id: `bench-${round}-0`,
        items: [{ sku: product.sku, quantity: 0 }],
      })
      const batchesBefore = resend.requests.filter((r) => r.path.startsWith('/emails/batch')).length
      const started = performance.now()
      await postStockEvent(server.url, SECRET, {
        id: `bench-${round}-1`,
        items: [{ sku: product.sku, quantity: 3 }],
      })
      while (
        resend.requests.filter((r) => r.path.startsWith('/emails/batch')).length === batchesBefore
      ) {
        if (performance.now() - started > 120_000) throw new Error('no e-mail within 120 s')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      times.push(performance.now() - started)
    }
  } finally {
    await server.stop()
    await resend.close()
  }
  return times
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')} (2 shared cores)`,
  )
  const rows = await inProcess()
  console.log(
    `\nStock update (${LATENCY_MS} ms per blob request, ${WAITING} waiting, median of ${ROUNDS})`,
  )
  const header = ['', 'time', 'blob requests']
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)))
  for (const row of [header, ...rows]) {
    console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '))
  }
  const times = await webhookToFirstEmail()
  console.log(
    `\nWebhook (0 → 3) to the first e-mail batch accepted by the Resend stand-in, over npm start: ` +
      `${times.map((t) => `${t.toFixed(0)} ms`).join(', ')} (median ${median(times).toFixed(0)} ms)`,
  )
  console.log(
    `load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
