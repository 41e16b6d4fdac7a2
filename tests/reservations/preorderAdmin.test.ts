import { beforeAll, describe, expect, it } from 'vitest'
import findHandler from '../../netlify/functions/admin-reservations-find.js'
import productsHandler from '../../netlify/functions/admin-reservations-products.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { clearOutbound } from '../forms/formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'

/** The staff side of pre-orders: find by id, units and window per product. */

const ADMIN = ADMIN_TOKEN
useBlobsServer()
beforeAll(clearOutbound)
useLogCapture()
useApiTokens()

const deployContext = `preorder-admin-${process.pid}`
async function call(handler: typeof findHandler, path: string, body: unknown, token = ADMIN) {
  const context = fakeContext({ deployContext })
  const answer = await readJson(await handler(jsonRequest(path, body, { token }), context))
  await context.settled()
  return answer
}

describe('POST /api/admin/reservations/find', () => {
  it('finds a reservation by its id alone; 404 for an unknown one; 400 without an id; 401 without the token', async () => {
    const made = await call(reservationHandler, '/api/reservation', {
      name: '検索 太郎',
      email: 'find@example.com',
      productSlug: 'kiyomizu-matcha-chawan',
      quantity: 2,
    })
    const id = made.body.reservationId as string
    const found = await call(findHandler, '/api/admin/reservations/find', { id: ` ${id} ` })
    expect(found.status).toBe(200)
    expect(found.body.reservation).toMatchObject({
      id,
      productSlug: 'kiyomizu-matcha-chawan',
      quantity: 2,
      status: 'pending',
    })
    const missing = await call(findHandler, '/api/admin/reservations/find', { id: 'res_nothing' })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ success: false, error: 'Reservation not found' })
    const empty = await call(findHandler, '/api/admin/reservations/find', {})
    expect(empty.body).toEqual({ success: false, error: 'id is required' })
    expect((await call(findHandler, '/api/admin/reservations/find', { id }, 'wrong')).status).toBe(
      401,
    )
  })
})

describe('POST /api/admin/reservations/products', () => {
  it('lists every pre-order product with its cap, units held and left, and window', async () => {
    const answer = await call(productsHandler, '/api/admin/reservations/products', {})
    expect(answer.status).toBe(200)
    const bySlug = Object.fromEntries(
      answer.body.products.map((row: { productSlug: string }) => [row.productSlug, row]),
    )
    expect(bySlug['kiyomizu-matcha-chawan']).toEqual({
      productSlug: 'kiyomizu-matcha-chawan',
      title: '京焼 Kiyomizu 抹茶碗 若草',
      reservationLimit: 5,
      heldUnits: 2,
      remaining: 3,
      maxPerReservation: 2,
      opensAt: null,
      closesAt: null,
      releaseDate: '2027-01-20',
      window: 'open',
    })
    expect(bySlug['shinkansen-tenugui']).toMatchObject({
      reservationLimit: 30,
      heldUnits: 0,
      remaining: 30,
      opensAt: '2026-12-01T10:00:00+09:00',
    })
    expect(bySlug['hario-v60-dripper']).toBeUndefined()
  })
})
