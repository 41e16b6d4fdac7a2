import { describe, expect, it } from 'vitest'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as reservationsListModule from '../../netlify/functions/admin-reservations-list.js'
import { at, endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const reservationsList = endpoint(reservationsListModule, 'admin')
const notifyList = endpoint(notifyListModule, 'admin')

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

describe('POST /api/admin-reservations-list', () => {
  async function seeded() {
    const scope = isolatedScope()
    const records = {
      a: await scope.seedReservation({ createdAt: at(1), productSlug: 'blue-mug' }),
      b: await scope.seedReservation({
        createdAt: at(3),
        productSlug: 'red-mug',
        status: 'confirmed',
      }),
      c: await scope.seedReservation({ createdAt: at(2), productSlug: 'blue-mug' }),
      archived: await scope.seedReservation({
        createdAt: at(4),
        productSlug: 'blue-mug',
        isArchived: true,
        archivedAt: at(5),
      }),
      unarchived: await scope.seedReservation({
        createdAt: at(0),
        productSlug: 'blue-mug',
        isArchived: false,
      }),
    }
    return { scope, records }
  }

  it('{} (and an empty body) lists every active reservation, newest first, without archived ones', async () => {
    const { scope, records } = await seeded()
    for (const body of [{}, undefined]) {
      const { status, body: answer } = await scope.call(reservationsList, body)
      expect(status).toBe(200)
      expect(answer).toEqual({
        success: true,
        reservations: [records.b, records.c, records.a, records.unarchived],
      })
    }
  })

  it('filters by status and by product, together too', async () => {
    const { scope, records } = await seeded()
    const byStatus = await scope.call(reservationsList, { status: 'pending' })
    expect(byStatus.body.reservations.map((r: any) => r.id)).toEqual(
      [records.c, records.a, records.unarchived].map((r) => r.id),
    )
    const byProduct = await scope.call(reservationsList, { productSlug: 'red-mug' })
    expect(byProduct.body.reservations).toEqual([records.b])
    const both = await scope.call(reservationsList, { productSlug: 'red-mug', status: 'pending' })
    expect(both.body).toEqual({ success: true, reservations: [] })
    const unknownProduct = await scope.call(reservationsList, { productSlug: 'no-such-thing' })
    expect(unknownProduct.body).toEqual({ success: true, reservations: [] })
  })

  it("'' and null filters mean no filter", async () => {
    const { scope } = await seeded()
    const { status, body } = await scope.call(reservationsList, { status: '', productSlug: null })
    expect(status).toBe(200)
    expect(body.reservations).toHaveLength(4)
  })

  it('400 Invalid status for an unknown status filter', async () => {
    const scope = isolatedScope()
    for (const [value, text] of [
      ['notified', 'notified'],
      ['responded', 'responded'],
      [3, '3'],
    ] as const) {
      const answer = await scope.call(reservationsList, { status: value })
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ success: false, error: `Invalid status: ${text}` })
    }
  })

  it('400 for a productSlug that is not a string', async () => {
    const answer = await isolatedScope().call(reservationsList, { productSlug: 5 })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ success: false, error: 'productSlug must be a string' })
  })

  it('shows a status change made a moment ago (no stale listing)', async () => {
    const { scope, records } = await seeded()
    await scope.call(reservationsList, {})
    await scope.repositories.reservations.update(records.a, (r) => ({ ...r, status: 'cancelled' }))
    const { body } = await scope.call(reservationsList, { status: 'cancelled' })
    expect(body.reservations.map((r: any) => r.id)).toEqual([records.a.id])
  })
})

describe('POST /api/admin-notify-list', () => {
  it('lists active subscriptions newest first, filters by status and product', async () => {
    const scope = isolatedScope()
    const a = await scope.seedSubscription({ createdAt: at(1) })
    const b = await scope.seedSubscription({
      createdAt: at(2),
      status: 'notified',
      notifiedAt: at(3),
    })
    const c = await scope.seedSubscription({ createdAt: at(3), productSlug: 'red-mug' })
    await scope.seedSubscription({ createdAt: at(9), isArchived: true, archivedAt: at(9) })

    const all = await scope.call(notifyList, {})
    expect(all.status).toBe(200)
    expect(all.body).toEqual({ success: true, subscriptions: [c, b, a] })
    const pending = await scope.call(notifyList, { status: 'pending', productSlug: 'blue-mug' })
    expect(pending.body.subscriptions).toEqual([a])
    const notified = await scope.call(notifyList, { status: 'notified' })
    expect(notified.body.subscriptions).toEqual([b])
  })

  it('400 Invalid status for a reservation status', async () => {
    const answer = await isolatedScope().call(notifyList, { status: 'confirmed' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ success: false, error: 'Invalid status: confirmed' })
  })

  it('answers an empty list on an empty store', async () => {
    const answer = await isolatedScope().call(notifyList, {})
    expect(answer).toMatchObject({ status: 200, body: { success: true, subscriptions: [] } })
  })
})
