/**
 * `npm run bench orders`: what one order event of the signed order webhook costs, and what the
 * daily run of long-waiting sign-ups costs.
 *
 * In process, the deployed handlers (signature, body, services) against the atomic local Blobs
 * server behind a proxy that adds 10 ms to every blob request (a round trip on Netlify): blob
 * requests and wall time of
 * - an order of one product whose buyer has a pending sign-up for it (closed) and no notice;
 * - an order of one product whose buyer a restock notice reached 2 days before (counted for it,
 *   the click looked up), among 20 notices stored;
 * - the same order again (a replay: answered from its event mark);
 * - the daily `signup-expiry` run over 200 sign-ups with nothing due, and with 10 due.
 * Figures are printed, never asserted; the machine is shared (load average printed).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { orderWebhook } from '../netlify/functions/order-webhook.js'
import { signupExpiry } from '../netlify/functions/signup-expiry.js'
import { webhookSignature } from '../src/lib/signing/webhookSignature.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import type { NotificationHistory, NotifySubscription } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startRecordingServer } from '../platform/recordingServer.js'
import { blobsContextFor, contextFor, printSteps, stepTimer } from './handlerBench.js'
import { startLatencyProxy } from './latencyProxy.js'

const LATENCY_MS = 10
const TOKEN = 'bench'
const ROUNDS = 3
const SECRET = 'bench-order-secret'
const PRODUCT = 'hario-v60-dripper'
const DAY = 24 * 60 * 60 * 1000
const NOTICES = 20
const SIGNUPS = 200

function subscription(i: number, email: string, createdAt: number): NotifySubscription {
  return {
    id: `ntf_${createdAt}-${String(i).padStart(6, '0')}`,
    email,
    productSlug: PRODUCT,
    status: 'pending',
    createdAt: new Date(createdAt).toISOString(),
    notifiedAt: null,
  }
}

function notice(i: number, at: number, recipients: string[]): NotificationHistory {
  return {
    id: `notif_bench-${i}`,
    productSlug: PRODUCT,
    emailTitle: '再入荷',
    emailBody: '入荷しました。',
    recipientEmails: recipients,
    sentCount: recipients.length,
    timestamp: new Date(at).toISOString(),
    status: 'sent',
    failedRecipients: [],
    deliveryState: 'complete',
    deliveryMode: 'email',
    completedAt: new Date(at + 60_000).toISOString(),
  }
}

async function postOrder(deployContext: string, order: unknown): Promise<number> {
  const body = JSON.stringify(order)
  const t = Math.floor(Date.now() / 1000)
  const response = await orderWebhook()(
    new Request('http://localhost:8888/api/order-webhook', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Order-Signature': `t=${t},v1=${webhookSignature(SECRET, t, body)}`,
      },
      body,
    }),
    contextFor(deployContext),
  )
  await response.text()
  return response.status
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')} (2 shared cores)`,
  )
  const directory = await mkdtemp(join(tmpdir(), 'bench-orders-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const proxy = await startLatencyProxy(`http://127.0.0.1:${port}`, LATENCY_MS)
  const resend = await startRecordingServer()
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(proxy.url, TOKEN)
  process.env.ORDER_WEBHOOK_SECRET = SECRET
  process.env.UNSUBSCRIBE_SECRET = 'bench-unsubscribe'
  process.env.RESEND_API_KEY = 're_bench'
  process.env.RESEND_FROM_EMAIL = 'shop@example.jp'
  process.env.RESEND_BASE_URL = resend.url
  process.env.QUIET_HOURS = 'off'
  const { samples, measure } = stepTimer(proxy.counter)

  for (let round = 0; round < ROUNDS; round++) {
    const deployContext = `bench-orders-${round}`
    const repositories = openRepositories(contextFor(deployContext))
    const now = Date.now()
    const buyer = `buyer${round}@example.jp`
    const reached = `reached${round}@example.jp`
    await repositories.subscriptions.create(
      subscription(1, buyer, now - DAY),
      subscription(1, buyer, now - DAY),
    )
    const notified = { ...subscription(2, reached, now - 10 * DAY), status: 'notified' as const }
    notified.notifiedAt = new Date(now - 2 * DAY).toISOString()
    await repositories.subscriptions.create(notified, notified)
    await mapWithConcurrency(
      Array.from({ length: NOTICES }, (_, i) => i),
      8,
      async (i) => {
        const record = notice(i, now - (i + 2) * DAY, i === 0 ? [reached] : ['someone@example.jp'])
        await repositories.history.create({ id: record.id }, record)
      },
    )
    // why: the listing caches of a warm instance, as a busy shop has them
    await repositories.subscriptions.listProduct(PRODUCT)
    const items = [{ productSlug: PRODUCT, quantity: 1 }]
    await measure('order: closes a pending sign-up, no notice', () =>
      postOrder(deployContext, { id: `order_close_${round}`, email: buyer, items }),
    )
    const attributed = { id: `order_attr_${round}`, email: reached, items, total: 6600 }
    await measure(`order: counted for a notice (of ${NOTICES}), click looked up`, () =>
      postOrder(deployContext, attributed),
    )
    await measure('order replayed (duplicate)', () => postOrder(deployContext, attributed))

    const expiryContext = `bench-expiry-${round}`
    const expiryRepositories = openRepositories(contextFor(expiryContext))
    await mapWithConcurrency(
      Array.from({ length: SIGNUPS }, (_, i) => i),
      16,
      async (i) => {
        const record = subscription(i, `wait${i}@example.jp`, now - (i < 10 ? 181 : 30) * DAY)
        await expiryRepositories.subscriptions.create(record, record)
      },
    )
    const run = () =>
      signupExpiry()(
        new Request('http://localhost:8888/.netlify/functions/signup-expiry', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        }),
        contextFor(expiryContext),
      ).then((response) => response.text())
    await measure(`signup-expiry: ${SIGNUPS} sign-ups, 10 asked`, run)
    await measure(`signup-expiry: ${SIGNUPS} sign-ups, nothing due`, run)
  }
  printSteps(
    `Order events and the daily sign-up run (${LATENCY_MS} ms per blob request, median of ${ROUNDS})`,
    samples,
  )
  await resend.close()
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

await main()
