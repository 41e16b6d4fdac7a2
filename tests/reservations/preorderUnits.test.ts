import { beforeAll, describe, expect, it } from 'vitest'
import * as availabilityModule from '../../netlify/functions/product-availability.js'
import * as deleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as archiveModule from '../../netlify/functions/admin-reservations-archive.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import * as statusModule from '../../netlify/functions/admin-reservations-status.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { createReservation } from '../../src/lib/reservations/createReservation.js'
import { productAvailability } from '../../src/lib/reservations/productAvailability.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { unitLedgerKey } from '../../src/lib/storage/blobLayout.js'
import type { UnitLedger } from '../../src/lib/storage/reservationUnits.js'
import { NotAvailableError } from '../../src/lib/errors.js'
import { openServices } from '../../src/lib/services.js'
import { fakeContext, type TestContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound, TEXTS } from '../forms/formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, PREORDER_TOKEN, useApiTokens } from '../helpers/tokens.js'

/**
 * The pre-order rules through the real handlers and a real local Blobs server:
 * quantities, the cap (one ledger per product, compare-and-swap), units freed by cancel and
 * delete and taken again by un-cancel, the window (with a clock passed in), availability.
 * Products come from content/products: kiyomizu-matcha-chawan (limit 5, at most 2 per
 * reservation, release 2027-01-20) and shinkansen-tenugui (limit 30, window 2026-12-01 10:00 to
 * 2026-12-25 23:59 JST).
 */

const CAPPED = 'kiyomizu-matcha-chawan'
const WINDOWED = 'shinkansen-tenugui'
const LIMIT_TEXT = 'この商品の予約は上限数に達しました。'
const WINDOW_TEXT = '予約受付期間外です。'
const ADMIN = ADMIN_TOKEN
const PREORDER = PREORDER_TOKEN

useBlobsServer()
beforeAll(clearOutbound)
useLogCapture()
useApiTokens()

let worlds = 0
/** Requests of one test against a store of its own (its own deploy context). */
function world() {
  const deployContext = `preorder-${process.pid}-${++worlds}`
  const contexts: TestContext[] = []
  const context = () => {
    const created = fakeContext({ deployContext })
    contexts.push(created)
    return created
  }
  async function call(
    handler: (req: Request, context: any) => Promise<Response>,
    path: string,
    body?: unknown,
    options: { token?: string; method?: string } = {},
  ) {
    const ctx = context()
    const response = await handler(jsonRequest(path, body, options), ctx)
    await ctx.settled()
    return readJson(response)
  }
  return {
    context,
    reserve: (quantity?: number, email = `buyer${crypto.randomUUID()}@example.com`) =>
      call(reservationHandler, '/api/reservation', {
        name: '予約 太郎',
        email,
        productSlug: CAPPED,
        ...(quantity === undefined ? {} : { quantity }),
      }),
    setStatus: (id: string, status: string) =>
      call(
        statusModule.default,
        '/api/admin-reservations-status',
        {
          id,
          productSlug: CAPPED,
          status,
        },
        { token: ADMIN },
      ),
    remove: (...ids: string[]) =>
      call(
        deleteModule.default,
        '/api/admin/reservations/delete',
        {
          ids: ids.map((id) => ({ id, productSlug: CAPPED })),
        },
        { token: PREORDER },
      ),
    archive: (...ids: string[]) =>
      call(
        archiveModule.default,
        '/api/admin/reservations/archive',
        {
          ids: ids.map((id) => ({ id, productSlug: CAPPED })),
        },
        { token: PREORDER },
      ),
    availability: (slug = CAPPED) =>
      call(availabilityModule.default, `/api/products/${slug}/availability`, undefined, {
        method: 'GET',
      }),
    stored: (id: string, productSlug = CAPPED) =>
      openRepositories(context()).reservations.get({ id, productSlug }),
    settle: () => Promise.all(contexts.map((ctx) => ctx.settled())),
  }
}

describe('quantity on POST /api/reservation', () => {
  it('is stored (default 1) and answered as before', async () => {
    const w = world()
    const one = await w.reserve()
    const two = await w.reserve(2)
    expect(one.status).toBe(200)
    expect(Object.keys(two.body).sort()).toEqual(['reservationId', 'success'])
    expect((await w.stored(one.body.reservationId))?.quantity).toBe(1)
    expect((await w.stored(two.body.reservationId))?.quantity).toBe(2)
  })

  it('answers the §4.10 400 with a quantity detail past the product maximum, 0, or not a whole number', async () => {
    const w = world()
    for (const quantity of [3, 0, 1.5, 'two', -1, true]) {
      const answer = await w.reserve(quantity as number)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe(TEXTS.invalid)
      expect(answer.body.details).toEqual([
        {
          field: 'quantity',
          message:
            quantity === 3
              ? '数量は1から2までの整数で入力してください。'
              : '数量は1から100までの整数で入力してください。',
        },
      ])
    }
    expect((await w.availability()).body.remaining).toBe(5)
  })
})

describe('the cap (reservationLimit 5)', () => {
  it('answers 409 with the remaining units once the next reservation would exceed it', async () => {
    const w = world()
    expect((await w.reserve(2)).status).toBe(200)
    expect((await w.reserve(2)).status).toBe(200)
    const over = await w.reserve(2)
    expect(over).toMatchObject({ status: 409 })
    expect(over.body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 1 })
    expect((await w.reserve(1)).status).toBe(200)
    expect((await w.reserve(1)).body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 0 })
    const { records } = await openRepositories(w.context()).reservations.listProduct(CAPPED)
    expect(records.reduce((sum, record) => sum + (record.quantity ?? 1), 0)).toBe(5)
  })

  it('50 simultaneous reservations of 1 give exactly 5 × 200 and 45 × 409', async () => {
    const w = world()
    const answers = await Promise.all(Array.from({ length: 50 }, () => w.reserve(1)))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(5)
    expect(statuses.filter((status) => status === 409)).toHaveLength(45)
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect(refused.body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 0 })
    }
    const { records } = await openRepositories(w.context()).reservations.listProduct(CAPPED)
    expect(records).toHaveLength(5)
  })

  it('frees units on cancel and delete, takes them again on un-cancel (409 when none are left); archived ones count', async () => {
    const w = world()
    const a = (await w.reserve(2)).body.reservationId
    const b = (await w.reserve(2)).body.reservationId
    const c = (await w.reserve(1)).body.reservationId
    expect((await w.availability()).body.remaining).toBe(0)

    expect((await w.setStatus(a, 'cancelled')).status).toBe(200)
    expect((await w.availability()).body.remaining).toBe(2)
    const d = (await w.reserve(2)).body.reservationId
    expect(d).toMatch(/^res_/)
    expect((await w.availability()).body.remaining).toBe(0)

    const refused = await w.setStatus(a, 'pending')
    expect(refused.status).toBe(409)
    expect(refused.body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 0 })
    expect((await w.stored(a))?.status).toBe('cancelled')

    expect((await w.archive(c)).body.archivedCount).toBe(1)
    expect((await w.availability()).body.remaining).toBe(0)
    expect((await w.remove(c)).body.deletedCount).toBe(1)
    expect((await w.availability()).body.remaining).toBe(1)
    expect((await w.setStatus(a, 'pending')).body).toEqual({
      success: false,
      error: LIMIT_TEXT,
      remaining: 1,
    })

    expect((await w.remove(b)).body.deletedCount).toBe(1)
    expect((await w.availability()).body.remaining).toBe(3)
    const back = await w.setStatus(a, 'pending')
    expect(back.status).toBe(200)
    expect(back.body.reservation).toMatchObject({ id: a, status: 'pending', quantity: 2 })
    expect((await w.availability()).body.remaining).toBe(1)

    // a refused transition gives back nothing it did not hold
    expect((await w.setStatus(d, 'fulfilled')).status).toBe(409)
    expect((await w.availability()).body.remaining).toBe(1)
    await w.settle()
  })

  it('builds the ledger from reservations stored before the cap existed', async () => {
    const w = world()
    const { reservations } = openRepositories(w.context())
    for (const [index, status] of ['pending', 'confirmed', 'cancelled', 'fulfilled'].entries()) {
      const record = {
        id: `res_before-${index}`,
        name: '以前 の予約',
        email: `before${index}@example.com`,
        productSlug: CAPPED,
        status,
        notes: '',
        createdAt: '2026-01-01T00:00:00.000Z',
        respondedAt: null,
      }
      await reservations.create(record, record)
    }
    expect((await w.availability()).body.remaining).toBe(2)
    expect((await w.reserve(2)).status).toBe(200)
    expect((await w.reserve(1)).body.remaining).toBe(0)
  })
})

describe('units of a request that died between its two writes', () => {
  it('are given back once the product is full and they are over a minute old, never sooner', async () => {
    const w = world()
    const store = openStore(RECORDS_STORE, w.context())
    const ledger = (at: string) => ({ holds: { res_died: { units: 5, at } } })
    // why: the ledger names a reservation that was never stored; the cap looks full
    await store.setJSON(unitLedgerKey(CAPPED), ledger(new Date().toISOString()))
    expect(await w.reserve(1)).toMatchObject({ status: 409, body: { remaining: 0 } })
    await store.setJSON(unitLedgerKey(CAPPED), ledger('2026-01-01T00:00:00.000Z'))
    expect((await w.reserve(1)).status).toBe(200)
    const holds = ((await store.get(unitLedgerKey(CAPPED), { type: 'json' })) as UnitLedger).holds
    expect(Object.keys(holds)).toHaveLength(1)
    expect(holds.res_died).toBeUndefined()
    expect((await w.availability()).body.remaining).toBe(4)
  })
})

describe('the window (clock passed in)', () => {
  const jst = (text: string) => () => Date.parse(text)
  async function reserveAt(now: () => number, deployContext = `window-${++worlds}`) {
    const context = fakeContext({ deployContext })
    const config = loadConfig(process.env)
    const log = createLogger('window-test')
    const form = {
      name: '期間 花子',
      email: 'window@example.com',
      productSlug: WINDOWED,
      quantity: 1,
    }
    return createReservation(form, openServices(context, config, log, { now })).then(
      (value) => ({ ok: true as const, value }),
      (error: NotAvailableError) => ({ ok: false as const, error }),
    )
  }

  it('before opening: 409 with the opening time; availability not reservable', async () => {
    const before = jst('2026-12-01T09:59:59+09:00')
    const outcome = await reserveAt(before)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    // why: the endpoint wrapper answers every NotAvailableError with 409 (one table)
    expect(outcome.error).toBeInstanceOf(NotAvailableError)
    expect(outcome.error.message).toBe(WINDOW_TEXT)
    expect(outcome.error.details).toEqual({ opensAt: '2026-12-01T10:00:00+09:00' })
    const context = fakeContext({ deployContext: `window-${++worlds}` })
    const services = openServices(context, loadConfig(process.env), createLogger('window-test'), {
      now: before,
    })
    expect(await productAvailability(WINDOWED, services)).toEqual({
      productSlug: WINDOWED,
      reservable: false,
      remaining: 30,
      opensAt: '2026-12-01T10:00:00+09:00',
      closesAt: '2026-12-25T23:59:00+09:00',
      releaseDate: '2027-01-10',
    })
  })

  it('inside the window: reserved; availability reservable', async () => {
    const inside = jst('2026-12-01T10:00:00+09:00')
    const deployContext = `window-${++worlds}`
    const outcome = await reserveAt(inside, deployContext)
    expect(outcome.ok).toBe(true)
    const context = fakeContext({ deployContext })
    const services = openServices(context, loadConfig(process.env), createLogger('window-test'), {
      now: inside,
    })
    await expect(productAvailability(WINDOWED, services)).resolves.toMatchObject({
      reservable: true,
      remaining: 29,
    })
  })

  it('from closing on: 409 with the closing time', async () => {
    const after = jst('2026-12-25T23:59:00+09:00')
    const outcome = await reserveAt(after)
    expect(outcome.ok).toBe(false)
    if (outcome.ok) return
    expect(outcome.error).toBeInstanceOf(NotAvailableError)
    expect(outcome.error.message).toBe(WINDOW_TEXT)
    expect(outcome.error.details).toEqual({ closesAt: '2026-12-25T23:59:00+09:00' })
  })
})

describe('GET /api/products/{slug}/availability', () => {
  it('answers the documented shape, public and cached for 30 s', async () => {
    const w = world()
    await w.reserve(2)
    const answer = await w.availability()
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      success: true,
      productSlug: CAPPED,
      reservable: true,
      remaining: 3,
      opensAt: null,
      closesAt: null,
      releaseDate: '2027-01-20',
      lineSignup: false,
    })
    expect(answer.headers.get('cache-control')).toBe('public, max-age=30')
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers remaining null for a product without a cap, 404 for an unknown one, 405 for POST', async () => {
    const w = world()
    expect((await w.availability('hario-v60-dripper')).body).toMatchObject({
      success: true,
      reservable: true,
      remaining: null,
    })
    const unknown = await w.availability('no-such-product')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ success: false, error: TEXTS.productNotFound })
    const post = await readJson(
      await availabilityModule.default(
        jsonRequest(`/api/products/${CAPPED}/availability`, {}),
        fakeContext(),
      ),
    )
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, OPTIONS')
  })
})
