/**
 * `npm run bench delivery`: a restock delivery of 1,000 → 10,000 → 50,000 recipients.
 *
 * In process, against the atomic local Blobs server and a local Resend stand-in, on a fake clock
 * (time is a parameter): every blob request adds 10 ms (a round trip on Netlify), counted one
 * after the other although a batch marks its 10 recipients at once; every provider call adds
 * 400 ms; every invocation of the background function starts 250 ms after the one before asked.
 * Every recipient is a real subscription record of the product (written through the repository
 * and indexed before the delivery, outside the counted requests), so marking them `notified`
 * costs what it costs a shop. Figures, beside their goals:
 * - simulated duration of the whole delivery (goal at 50,000: ≤ 90 min; one batch a second is
 *   83.3 min), and what a 1 s pause after each batch's work would give for the same work;
 * - blob requests of one progress poll halfway through (the history answer the dashboard polls,
 *   and the resume / scheduled sweep's read), against what reading every settled batch would;
 * - blob requests of the delivery per recipient (goal ≤ 2.0), and by kind (get, set, list, delete).
 * Figures are printed, never asserted.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../src/lib/log.js'
import { createResendMailer, type Mailer } from '../src/lib/notifiers/resendMailer.js'
import { readBatchProgress } from '../src/lib/restock/deliveryProgress.js'
import { BATCH_SIZE, runDelivery } from '../src/lib/restock/deliveryRun.js'
import {
  historyListSchema,
  listNotificationHistory,
} from '../src/lib/restock/notificationHistoryList.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import type { NotifySubscription } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'
import { rebuildIndexes } from '../src/lib/storage/listing/indexMaintenance.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startRecordingServer } from '../platform/recordingServer.js'
import { figure, printGrowth, progress, type Figures } from './benchReport.js'

/** BENCH_DELIVERY_SIZES=`1000,10000`: only these sizes (default 1,000, 10,000 and 50,000). */
const SIZES = process.env.BENCH_DELIVERY_SIZES?.split(',').map(Number) ?? [1000, 10_000, 50_000]
const BLOB_MS = 10
const PROVIDER_MS = 400
const INVOCATION_START_MS = 250
const TOKEN = 'bench'

function blobsContextFor(url: string): string {
  const context = { edgeURL: url, uncachedEdgeURL: url, siteID: 'bench-site', token: TOKEN }
  return Buffer.from(JSON.stringify(context)).toString('base64')
}

const directory = await mkdtemp(join(tmpdir(), 'bench-delivery-'))
let time = Date.UTC(2026, 10, 24, 3, 0, 0)
let counting = true
/** Requests of a poll, counted apart from the delivery's. */
let polling = false
let pollRequests = 0
let requests = 0
const byKind = new Map<string, number>()
const blobs = new AtomicBlobsServer({
  directory,
  token: TOKEN,
  port: 0,
  onRequest: ({ type }: { type: string }) => {
    if (polling) pollRequests += 1
    if (!counting) return
    requests += 1
    byKind.set(type, (byKind.get(type) ?? 0) + 1)
    time += BLOB_MS
  },
})
const { port } = await blobs.start()
process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(`http://127.0.0.1:${port}`)
const resend = await startRecordingServer()
process.env.RESEND_BASE_URL = resend.url
const log = { ...createLogger('bench'), info: () => undefined }
const context = { requestId: 'bench', deploy: { context: 'bench' }, waitUntil: () => undefined }
const repositories = openRepositories(context)
const DAY_MS = 86_400_000
// why: a shop's indexes are complete (the background rebuild of its first records): so are these
while (
  (await rebuildIndexes(repositories.store, repositories.indexes, {
    now: Date.now,
    deadline: Infinity,
    owner: 'bench',
  })) !== 'complete'
);

/**
 * Writes `count` pending subscriptions of `productSlug` through the repository (dated back a
 * day, so that their index deltas have settled) and folds the product's index, as a shop's
 * subscribers would be by the time a restock is sent. Not counted.
 */
async function seedSubscribers(productSlug: string, count: number): Promise<NotifySubscription[]> {
  counting = false
  const writer = openRepositories(context, { now: () => Date.now() - DAY_MS })
  const subscribers = Array.from({ length: count }, (_, i): NotifySubscription => ({
    id: `ntf_${Date.UTC(2026, 9, 1) + i}-${String(i).padStart(10, '0')}`,
    email: `fan${i}@example.jp`,
    productSlug,
    status: 'pending',
    createdAt: new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString(),
    notifiedAt: null,
    consentedAt: new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString(),
  }))
  await mapWithConcurrency(subscribers, 64, async (subscription, i) => {
    await writer.subscriptions.create(subscription, subscription)
    if (i % 1000 === 0) progress(`seeding ${count.toLocaleString('en-US')} subscribers`, i, count)
  })
  progress(`seeding ${count.toLocaleString('en-US')} subscribers`, count, count)
  await repositories.subscriptions.fold(productSlug)
  counting = true
  return subscribers
}

async function deliver(count: number): Promise<Figures> {
  const id = `notif_${crypto.randomUUID()}`
  const productSlug = `bench-delivery-${count}`
  const subscribers = await seedSubscribers(productSlug, count)
  const recipients = subscribers.map((subscription) => ({
    subscriptionId: subscription.id,
    email: subscription.email,
  }))
  const createdAt = new Date(time).toISOString()
  await repositories.deliveries.saveJob({
    notificationId: id,
    productSlug,
    emailTitle: '再入荷しました',
    emailBody: 'お待たせしました。',
    recipients,
    createdAt,
  })
  await repositories.history.create(
    { id },
    {
      id,
      productSlug,
      emailTitle: '再入荷しました',
      emailBody: 'お待たせしました。',
      recipientEmails: recipients.map((r) => r.email),
      sentCount: count,
      timestamp: createdAt,
      status: 'sent',
      failedRecipients: [],
      deliveryMode: 'email',
      deliveryState: 'queued',
    },
  )
  const batchCount = Math.ceil(count / BATCH_SIZE)
  const half = Math.floor(batchCount / 2)
  const real = createResendMailer({
    apiKey: 're_bench',
    from: 'shop@example.jp',
    timeoutMs: 5000,
    log,
  })
  const polls = { history: 0, resume: 0 }
  let sleptMs = 0
  let calls = 0
  const mailer: Pick<Mailer, 'sendBatch'> = {
    async sendBatch(emails, key) {
      calls += 1
      progress(`delivery: ${count.toLocaleString('en-US')} recipients`, calls, batchCount)
      if (key.endsWith(`batch-${half}`)) {
        // why: what a poll costs halfway through, kept out of the delivery's time and requests
        counting = false
        polling = true
        pollRequests = 0
        await listNotificationHistory(
          { history: repositories.history, jobs: repositories.deliveries },
          historyListSchema.parse({ notificationId: id }),
        )
        polls.history = pollRequests
        pollRequests = 0
        await readBatchProgress(id, {
          history: repositories.history,
          jobs: repositories.deliveries,
        })
        polls.resume = pollRequests
        polling = false
        counting = true
      }
      resend.requests.length = 0
      time += PROVIDER_MS
      return real.sendBatch(emails, key)
    },
  }
  const startedAt = time
  requests = 0
  byKind.clear()
  const pending = [id]
  let invocations = 0
  while (pending.length > 0) {
    invocations += 1
    const next = pending.shift()!
    await runDelivery(next, {
      repositories,
      mailer,
      siteUrl: 'https://shop.example.jp',
      unsubscribeSecret: 'bench-secret',
      log,
      now: () => time,
      sleep: async (ms) => {
        sleptMs += ms
        time += ms
      },
      continueLater: async (notificationId) => void pending.push(notificationId),
    })
    time += INVOCATION_START_MS
  }
  const minutes = (time - startedAt) / 60_000
  // a paused pacing: the same work, then a whole second's pause before every call but the first
  const pausedMinutes = (time - startedAt - sleptMs + (calls - 1) * 1000) / 60_000
  const settledHalf = half
  const everyBatchPoll = 1 + Math.max(1, Math.ceil(settledHalf / 1000)) + settledHalf
  counting = false
  const history = await repositories.history.get({ id })
  if (history?.sentCount !== count) throw new Error(`${count}: sent ${history?.sentCount}`)
  const { records } = await repositories.subscriptions.listProduct(productSlug)
  const notified = records.filter((record) => record.status === 'notified').length
  if (notified !== count) throw new Error(`${count}: ${notified} subscriptions marked notified`)
  counting = true
  const perRecipient = (kind: string) => (byKind.get(kind) ?? 0) / count
  return {
    'simulated duration': {
      value: minutes,
      unit: 'min',
      goal: count === 50_000 ? { below: 90 } : undefined,
    },
    'the same with a 1 s pause after the work': { value: pausedMinutes, unit: 'min' },
    invocations: { value: invocations, unit: 'runs' },
    'blob requests per poll (history answer)': {
      value: polls.history,
      unit: '',
      goal: { below: 5 },
    },
    'blob requests per poll (resume, sweep)': {
      value: polls.resume,
      unit: 'requests',
      goal: { below: 5 },
    },
    'reading every settled batch instead': { value: everyBatchPoll, unit: 'requests' },
    'blob requests of the delivery per recipient': {
      value: requests / count,
      unit: '',
      goal: { atMost: 2 },
    },
    '  of which reads (get)': { value: perRecipient('get'), unit: '' },
    '  writes (set)': { value: perRecipient('set'), unit: '' },
    '  metadata reads': { value: perRecipient('getMetadata'), unit: '' },
    '  listings': { value: perRecipient('list'), unit: '' },
    '  deletes': { value: perRecipient('delete'), unit: '' },
  }
}

console.log(`load average ${loadavg()[0].toFixed(2)} (2 cores, shared)`)
const results: Figures[] = []
for (const size of SIZES) {
  const wall = performance.now()
  const figures = await deliver(size)
  results.push(figures)
  console.log(
    `\n${size.toLocaleString('en-US')} recipients (${((performance.now() - wall) / 1000).toFixed(0)} s of wall time)`,
  )
  for (const [name, { value, unit, goal }] of Object.entries(figures))
    figure(name, value, unit, goal)
}
printGrowth(
  results[0],
  results.at(-1)!,
  `growth ${SIZES[0].toLocaleString('en-US')} → ${SIZES.at(-1)!.toLocaleString('en-US')} recipients`,
)
await resend.close()
await blobs.stop()
await rm(directory, { recursive: true, force: true })
