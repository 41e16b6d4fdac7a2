/**
 * `npm run bench holds`: what one claim of a hold link (お取り置き) costs.
 *
 * In process, the deployed handler (token, form, services) against the atomic local Blobs server
 * behind a proxy that adds 10 ms to every blob request (a round trip on Netlify): blob requests
 * and wall time of
 * - opening the hold page (GET);
 * - the claim (POST with a name): the hold and the unit in one compare-and-swap of the stock
 *   record, the reservation stored, the sign-up marked, the confirmation e-mail to the Resend
 *   stand-in;
 * - the same claim again (answers the same reservation);
 * with the product's stock record holding 20 open holds beside the one claimed.
 * Figures are printed, never asserted; the machine is shared (load average printed).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { reservationHold } from '../netlify/functions/reservation-hold.js'
import { createHoldToken } from '../src/lib/restock/holdLink.js'
import type { NotifySubscription } from '../src/lib/storage/records.js'
import { openRepositories } from '../src/lib/storage/repositories.js'
import { holdIdFor, withHoldsOpened } from '../src/lib/storage/restockHolds.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'
import { startRecordingServer } from '../platform/recordingServer.js'
import { blobsContextFor, contextFor, printSteps, stepTimer } from './handlerBench.js'
import { startLatencyProxy } from './latencyProxy.js'

const LATENCY_MS = 10
const TOKEN = 'bench'
const ROUNDS = 3
const SECRET = 'bench-unsubscribe'
const PRODUCT = 'hario-v60-dripper'
const OTHER_HOLDS = 20

function subscription(i: number, createdAt: number): NotifySubscription {
  return {
    id: `ntf_${createdAt}-${String(i).padStart(6, '0')}`,
    email: `hold${i}@example.jp`,
    productSlug: PRODUCT,
    status: 'notified',
    createdAt: new Date(createdAt).toISOString(),
    notifiedAt: new Date(createdAt).toISOString(),
  }
}

async function callHold(deployContext: string, token: string, method: 'GET' | 'POST') {
  const body = method === 'POST' ? new URLSearchParams({ token, name: '山田 花子' }) : undefined
  const response = await reservationHold()(
    new Request(`http://localhost:8888/reservation/hold?token=${encodeURIComponent(token)}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
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
  const directory = await mkdtemp(join(tmpdir(), 'bench-holds-'))
  const blobs = new AtomicBlobsServer({ directory, token: TOKEN, port: 0 })
  const { port } = await blobs.start()
  const proxy = await startLatencyProxy(`http://127.0.0.1:${port}`, LATENCY_MS)
  const resend = await startRecordingServer()
  process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor(proxy.url, TOKEN)
  process.env.UNSUBSCRIBE_SECRET = SECRET
  process.env.RESEND_API_KEY = 're_bench'
  process.env.RESEND_FROM_EMAIL = 'shop@example.jp'
  process.env.RESEND_BASE_URL = resend.url
  process.env.QUIET_HOURS = 'off'
  const timer = stepTimer(proxy.counter)
  const samples = timer.samples
  const measure = async (label: string, work: () => Promise<number>) => {
    const status = await timer.measure(label, work)
    if (status !== 200) throw new Error(`${label}: HTTP ${status}`)
  }

  for (let round = 0; round < ROUNDS; round++) {
    const deployContext = `bench-holds-${round}`
    const repositories = openRepositories(contextFor(deployContext))
    const now = Date.now()
    const people = Array.from({ length: OTHER_HOLDS + 1 }, (_, i) => subscription(i, now - i))
    for (const person of people) await repositories.subscriptions.create(person, person)
    const notificationId = `notif_bench-hold-${round}`
    const target = { productSlug: PRODUCT }
    await repositories.stock.change(target, (current) =>
      withHoldsOpened(
        { ...current, quantity: people.length },
        people.map(({ id }) => ({ subscriptionId: id, notificationId, hours: 24 })),
        now,
      ),
    )
    const token = createHoldToken(
      { holdId: holdIdFor(notificationId, people[0].id), target },
      now + 24 * 3_600_000,
      SECRET,
    )
    await measure('hold page (GET)', () => callHold(deployContext, token, 'GET'))
    await measure('hold claim (POST): reservation made', () =>
      callHold(deployContext, token, 'POST'),
    )
    await measure('hold claim again: the same reservation', () =>
      callHold(deployContext, token, 'POST'),
    )
  }
  printSteps(
    `Blob requests per hold claim, ${OTHER_HOLDS} other holds open (${LATENCY_MS} ms per blob request, median of ${ROUNDS})`,
    samples,
  )
  // why: the confirmation e-mails go after the answer; let them reach the stand-in first
  await new Promise((resolve) => setTimeout(resolve, 500))
  await resend.close()
  await proxy.close()
  await blobs.stop()
  await rm(directory, { recursive: true, force: true })
}

await main()
