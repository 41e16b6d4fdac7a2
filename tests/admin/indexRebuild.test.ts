import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as notifyList from '../../netlify/functions/admin-notify-list.js'
import * as reservationsList from '../../netlify/functions/admin-reservations-list.js'
import * as stats from '../../netlify/functions/admin-stats.js'
import { listingRebuild } from '../../netlify/functions/listing-rebuild-background.js'
import { listingVerify } from '../../netlify/functions/listing-verify.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { REBUILD_FUNCTION_PATH } from '../../src/lib/indexing/indexUpkeep.js'
import { issueRebuildTicket } from '../../src/lib/indexing/rebuildTicket.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

/**
 * No request ever rebuilds: lists and stats answer from the per-product indexes;
 * with the indexes gone they answer what exists with `rebuilding: true` while the background
 * rebuild (started by the request, with a rebuild ticket) builds them.
 */

const server = useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
const logs = useLogCapture()
const SECRET = 'index-rebuild-test-secret'
const PRODUCT = 'chasen-takayama'

const views = {
  reservations: endpoint(reservationsList, 'admin'),
  subscriptions: endpoint(notifyList, 'admin'),
  stats: endpoint(stats, 'admin'),
}

/** Calls to the rebuild function that requests started (captured instead of sent). */
let started: Request[] = []
beforeEach(() => {
  vi.stubEnv('UNSUBSCRIBE_SECRET', SECRET)
  started = []
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    if (new URL(request.url).pathname !== REBUILD_FUNCTION_PATH) return realFetch(input, init)
    started.push(request)
    return Promise.resolve(new Response(null, { status: 202 }))
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

/** Calls the background rebuild of `scope`'s store with `ticket`, on the clock `now`. */
function rebuild(ticket: string | null, now = Date.now, scope = isolatedScope()) {
  const target = { handler: listingRebuild({ now }), path: REBUILD_FUNCTION_PATH, token: '' }
  return scope.call(target, {}, { token: ticket })
}

describe('a hot product', () => {
  it('takes 100 simultaneous reservations: all 200, all listed and counted', async () => {
    const deployContext = `index-hot-${process.pid}`
    const context = () => fakeContext({ deployContext })
    const answers = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const body = { name: `客 ${i}`, email: `hot${i}@example.com`, productSlug: PRODUCT }
        return readJson(await reservationHandler(jsonRequest('/api/reservation', body), context()))
      }),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200))
    const call = async (target: (typeof views)['stats'], body: unknown = {}) =>
      readJson(
        await target.handler(jsonRequest(target.path, body, { token: target.token }), context()),
      )
    const listed = await call(views.reservations, { productSlug: PRODUCT })
    expect(listed.body.reservations).toHaveLength(100)
    expect((await call(views.reservations)).body.reservations).toHaveLength(100)
    const counted = await call(views.stats)
    expect(counted.body.stats.reservations).toMatchObject({
      total: 100,
      byStatus: { pending: 100 },
      byProduct: { [PRODUCT]: 100 },
    })
    expect(counted.body.rebuilding).toBeUndefined()
  })
})

describe('20,000 records without their indexes', () => {
  it('answers while the background rebuild runs, then answers everything', async () => {
    const scope = isolatedScope()
    const products = 40
    await mapWithConcurrency(
      Array.from({ length: 20_000 }, (_, i) => i),
      50,
      async (i) => {
        const record: Reservation = {
          id: `res_${String(i).padStart(6, '0')}`,
          name: `客 ${i}`,
          email: `r${i}@example.jp`,
          productSlug: `product-${i % products}`,
          status: i % 4 === 0 ? 'confirmed' : 'pending',
          notes: '',
          createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          respondedAt: null,
        }
        await scope.store.setJSON(`reservations/${record.productSlug}/${record.id}`, record)
      },
    )
    const added = await scope.seedReservation({ productSlug: 'product-1' })
    // why: the index of older data is missing, as after the first deploy onto existing data
    for (const { key } of (await scope.store.list({ prefix: 'index/' })).blobs) {
      await scope.store.delete(key)
    }
    clearInstanceIndexes()

    const before = server.operations.length
    const list = await scope.call(views.reservations, {})
    expect(list.status).toBe(200)
    expect(list.body.rebuilding).toBe(true)
    expect(list.body.reservations.map((r: Reservation) => r.id)).toEqual([added.id])
    const one = await scope.call(views.reservations, { productSlug: 'product-3' })
    expect(one).toMatchObject({ status: 200, body: { reservations: [], rebuilding: true } })
    const counts = await scope.call(views.stats)
    expect(counts).toMatchObject({ status: 200, body: { rebuilding: true } })
    // why: never a read of every record inside a request
    expect(server.operations.length - before).toBeLessThan(100)
    expect(started.length).toBeGreaterThan(0)

    // the rebuild the request started, killed after 10 products by its time budget
    const ticket = started[0].headers.get('authorization')!.replace('Bearer ', '')
    const builtAfter = (n: number) => async () =>
      (await scope.store.list({ prefix: 'index/reservations/v1/p/' })).blobs.length >= n
    let ranOut = false
    const clock = () => (ranOut ? Date.now() + 60 * 60_000 : Date.now())
    const watcher = setInterval(
      () =>
        void builtAfter(10)().then((enough) => {
          ranOut ||= enough
        }),
      50,
    )
    const first = await rebuild(ticket, clock, scope)
    clearInterval(watcher)
    expect(first.status).toBe(200)
    expect(first.body.state).toBe('continue')
    const checkpoint = (await scope.store.list({ prefix: 'index/reservations/v1/p/' })).blobs
    expect(checkpoint.length).toBeGreaterThanOrEqual(10)
    expect(checkpoint.length).toBeLessThan(products)
    const during = await scope.call(views.stats)
    expect(during).toMatchObject({ status: 200, body: { rebuilding: true } })

    // the next run (started by the first with a fresh ticket) resumes from the checkpoint
    const next = started.at(-1)!.headers.get('authorization')!.replace('Bearer ', '')
    const second = await rebuild(next, Date.now, scope)
    expect(second.body.state).toBe('complete')

    clearInstanceIndexes()
    const complete = await scope.call(views.reservations, {})
    expect(complete.body.rebuilding).toBeUndefined()
    expect(complete.body.reservations).toHaveLength(20_001)
    const product = await scope.call(views.reservations, { productSlug: 'product-3' })
    expect(product.body.reservations).toHaveLength(500)
    const done = await scope.call(views.stats)
    expect(done.body.rebuilding).toBeUndefined()
    expect(done.body.stats.reservations).toMatchObject({
      total: 20_001,
      byStatus: { confirmed: 5000, pending: 15_001 },
    })
    expect(done.body.stats.reservations.byProduct['product-1']).toBe(501)
    expect(logs.some((line) => line.event === 'storage.index_rebuild.run')).toBe(true)
  }, 600_000)
})

describe('the rebuild ticket', () => {
  it('refuses a call without a ticket, with a forged, an expired or an admin token (401)', async () => {
    const now = Date.now()
    const valid = issueRebuildTicket(SECRET, now)
    const forged = `${valid.slice(0, -4)}AAAA`
    const expired = issueRebuildTicket(SECRET, now - 6 * 60_000)
    const other = issueRebuildTicket('another-secret', now)
    for (const ticket of [null, forged, expired, other, views.stats.token, 'r1.1.x']) {
      expect((await rebuild(ticket)).status).toBe(401)
    }
    expect(logs.some((line) => line.event === 'storage.index_rebuild.ticket_rejected')).toBe(true)
  })

  it('lets a replayed live ticket start only the same idempotent run again', async () => {
    const ticket = issueRebuildTicket(SECRET, Date.now())
    // why: Netlify retries a failed background call with the same request; the run is claimed
    // (one at a time) and keeps what is built, so a replay can only do the same work again
    expect(await rebuild(ticket)).toMatchObject({ status: 200, body: { state: 'complete' } })
    expect(await rebuild(ticket)).toMatchObject({ status: 200, body: { state: 'complete' } })
  })
})

describe('the scheduled verifier', () => {
  it('brings a record edited in the Netlify UI into the lists and stats', async () => {
    const scope = isolatedScope()
    const kept = await scope.seedReservation({ productSlug: PRODUCT })
    expect((await scope.call(views.reservations, {})).body.reservations).toEqual([kept])
    // why: an edit around the service writes the record and no delta
    const edited = { ...kept, status: 'confirmed' }
    await scope.store.setJSON(`reservations/${PRODUCT}/${kept.id}`, edited)
    const verifier = {
      handler: listingVerify(),
      path: '/.netlify/functions/listing-verify',
      token: '',
    }
    const run = await scope.call(verifier, { next_run: '2026-11-24T03:10:00.000Z' })
    expect(run).toMatchObject({ status: 200, body: { success: true, rebuilding: false } })
    expect(run.body.verified).toBeGreaterThan(0)
    expect((await scope.call(views.reservations, {})).body.reservations).toEqual([edited])
    const counted = await scope.call(views.stats)
    expect(counted.body.stats.reservations.byStatus).toEqual({ confirmed: 1 })
  })
})
