/**
 * `npm run bench queue`: what a sign-up's place in the queue costs: the 「入荷待ちの状況」 page
 * (`GET /notify/status`) and the sign-up answer that carries the place.
 *
 * In process, the deployed handlers against the atomic local Blobs server behind a proxy that
 * adds 10 ms to every blob request (a round trip on Netlify); 1,000 sign-ups wait for the
 * product and 1,000 for another one (which the place never reads). Each request starts cold, as a
 * fresh worker does (no index held from before). Blob requests and wall time of
 * - the status page of the 500th waiting sign-up;
 * - the status page of a notified sign-up (no queue is read);
 * - a new sign-up answered with its place (1,001st).
 * Figures are printed, never asserted; the machine is shared (load average printed).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import notifySignup from '../netlify/functions/notify-signup.js'
import { notifyStatus } from '../netlify/functions/notify-status.js'
import { mapWithConcurrency } from '../src/lib/concurrency.js'
import type { NotifySubscription } from '../src/lib/storage/records.js'
import { clearInstanceIndexes } from '../src/lib/storage/recordCollection.js'
import { openRepositories } from '../src/lib/storage/repositories.js'
import { createStatusToken, statusUrl } from '../src/lib/subscriptions/statusLink.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { blobsContextFor, contextFor, printSteps, stepTimer } from './handlerBench.js'
import { startLatencyProxy } from './latencyProxy.js'

const LATENCY_MS = 10
const TOKEN = 'bench'
const ROUNDS = 3
const SECRET = 'bench-unsubscribe'
const PRODUCT = 'hario-v60-dripper'
const OTHER_PRODUCT = 'chasen-takayama'
const WAITING = 1000

function subscription(productSlug: string, i: number, createdAt: number): NotifySubscription {
  return {
    id: `ntf_${createdAt}-${String(i).padStart(10, '0')}`,
    email: `wait${i}@example.jp`,
    productSlug,
    status: 'pending',
    createdAt: new Date(createdAt).toISOString(),
    notifiedAt: null,
  }
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')} (2 shared cores)`,
  )
  const directory = await mkdtemp(join(tmpdir(), 'bench-queue-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const proxy = await startLatencyProxy(`http://127.0.0.1:${port}`, LATENCY_MS)
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(proxy.url, TOKEN)
  process.env.UNSUBSCRIBE_SECRET = SECRET
  delete process.env.RESEND_API_KEY
  // why: every request on Netlify is a fresh worker, holding no index from before
  const { samples, measure } = stepTimer(proxy.counter, clearInstanceIndexes)

  for (let round = 0; round < ROUNDS; round++) {
    const deployContext = `bench-queue-${round}`
    const repositories = openRepositories(contextFor(deployContext))
    const start = Date.now() - 30 * 24 * 60 * 60_000
    // why: a shop's store has its index marked complete (the first list indexed it)
    await repositories.subscriptions.listProduct(PRODUCT)
    const seeded: NotifySubscription[] = []
    await mapWithConcurrency(
      Array.from({ length: WAITING * 2 }, (_, i) => i),
      16,
      async (i) => {
        const product = i < WAITING ? PRODUCT : OTHER_PRODUCT
        const record = subscription(product, i, start + (i % WAITING) * 60_000)
        await repositories.subscriptions.create(record, record)
        if (product === PRODUCT) seeded.push(record)
      },
    )
    const notified = {
      ...subscription(PRODUCT, WAITING * 2, start),
      status: 'notified' as const,
      notifiedAt: new Date(start + 60_000).toISOString(),
    }
    await repositories.subscriptions.create(notified, notified)
    // why: the index as a shop has it between sign-ups: its changes written into the base, and
    // their deltas, once settled (10 s), deleted
    await new Promise((resolve) => setTimeout(resolve, 11_000))
    await repositories.subscriptions.fold(PRODUCT)
    await repositories.subscriptions.fold(OTHER_PRODUCT)
    seeded.sort((a, b) => a.createdAt.localeCompare(b.createdAt))

    const page = (target: NotifySubscription) => async () => {
      const url = statusUrl('http://localhost:8888', createStatusToken(target, SECRET, Date.now()))
      const response = await notifyStatus()(new Request(url), contextFor(deployContext))
      const html = await response.text()
      if (response.status !== 200) throw new Error(`status page answered ${response.status}`)
      return html
    }
    await measure(`status page, 500th of ${WAITING} waiting`, page(seeded[499]))
    await measure('status page, notified (no queue read)', page(notified))
    await measure(`sign-up answered with its place (${WAITING + 1}th)`, async () => {
      const response = await notifySignup(
        new Request('http://localhost:8888/api/notify-signup', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: `new${round}@example.jp`, productSlug: PRODUCT }),
        }),
        contextFor(deployContext),
      )
      const answer = (await response.json()) as { queue?: { place: number } }
      if (answer.queue?.place !== WAITING + 1) throw new Error(JSON.stringify(answer))
    })
  }
  printSteps(
    `The place in the queue, cold (${LATENCY_MS} ms per blob request, median of ${ROUNDS})`,
    samples,
  )
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

await main()
