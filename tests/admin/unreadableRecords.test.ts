import { describe, expect, it } from 'vitest'
import * as notifyArchivesList from '../../netlify/functions/admin-notify-archives-list.js'
import * as notifyList from '../../netlify/functions/admin-notify-list.js'
import * as notifySend from '../../netlify/functions/admin-notify-send.js'
import * as reservationsArchivesList from '../../netlify/functions/admin-reservations-archives-list.js'
import * as reservationsList from '../../netlify/functions/admin-reservations-list.js'
import * as reservationsStatus from '../../netlify/functions/admin-reservations-status.js'
import * as reservationsDelete from '../../netlify/functions/admin-reservations-delete.js'
import * as stats from '../../netlify/functions/admin-stats.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import signupHandler from '../../netlify/functions/notify-signup.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

const PRODUCT = 'hario-v60-dripper'
const OTHER_PRODUCT = 'hasami-rim-plate'

/** Every kind of damage a blob can have: empty, not JSON, JSON of another shape, a record without its fields. */
const DAMAGE: [string, string][] = [
  ['empty', ''],
  ['not JSON', '{"id": "res_cut'],
  ['an array', '[1, 2, 3]'],
  ['a record without its fields', JSON.stringify({ id: 'res_x', name: 'edited by hand' })],
]

const publicForm = (handler: typeof reservationHandler, path: string) => ({
  handler,
  path,
  token: '',
})

/** A scope whose both collections hold one good record and one blob of each kind of damage. */
async function damagedScope() {
  const scope = isolatedScope()
  const reservation = await scope.seedReservation({ productSlug: PRODUCT })
  const subscription = await scope.seedSubscription({ productSlug: PRODUCT })
  const pending = await scope.seedSubscription({ productSlug: OTHER_PRODUCT })
  for (const [index, [, text]] of DAMAGE.entries()) {
    await scope.store.set(`reservations/${PRODUCT}/res_damaged-${index}`, text)
    await scope.store.set(`notify/${PRODUCT}/ntf_1-damaged${index}`, text)
  }
  return { scope, reservation, subscription, pending }
}

describe('a record that cannot be read stays local (each kind of damage, both resources)', () => {
  it('stats answer 200, count the readable records and report the unreadable ones', async () => {
    const { scope } = await damagedScope()
    const { status, body } = await scope.call(endpoint(stats, 'admin'))
    expect(status).toBe(200)
    expect(body.stats.reservations).toMatchObject({ total: 1, unreadable: DAMAGE.length })
    expect(body.stats.notify).toMatchObject({ total: 2, unreadable: DAMAGE.length })
  })

  it('active and archive lists answer 200 with the readable records and an unreadable count', async () => {
    const { scope, reservation, subscription } = await damagedScope()
    const reservations = await scope.call(endpoint(reservationsList, 'admin'), {})
    expect(reservations.status).toBe(200)
    expect(reservations.body.reservations.map((r: { id: string }) => r.id)).toEqual([
      reservation.id,
    ])
    expect(reservations.body.unreadable).toBe(DAMAGE.length)
    const byProduct = await scope.call(endpoint(notifyList, 'admin'), { productSlug: PRODUCT })
    expect(byProduct.status).toBe(200)
    expect(byProduct.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([subscription.id])
    expect(byProduct.body.unreadable).toBe(DAMAGE.length)
    for (const archives of [reservationsArchivesList, notifyArchivesList]) {
      const answer = await scope.call(endpoint(archives, 'preorder'), {})
      expect(answer.status).toBe(200)
      expect(answer.body.total).toBe(0)
      expect(answer.body.unreadable).toBe(DAMAGE.length)
    }
  })

  it('answers without the field when nothing is damaged', async () => {
    const scope = isolatedScope()
    await scope.seedReservation()
    const { body } = await scope.call(endpoint(reservationsList, 'admin'), {})
    expect(body).not.toHaveProperty('unreadable')
    const { body: statsBody } = await scope.call(endpoint(stats, 'admin'))
    expect(statsBody.stats.reservations).not.toHaveProperty('unreadable')
  })

  it('public forms and notify/send keep working, for the damaged product and others', async () => {
    const { scope, pending } = await damagedScope()
    const reserve = await scope.call(publicForm(reservationHandler, '/api/reservation'), {
      name: '山田 花子',
      email: 'hanako@example.com',
      productSlug: PRODUCT,
    })
    expect(reserve.status).toBe(200)
    const signup = await scope.call(publicForm(signupHandler, '/api/notify-signup'), {
      email: 'new-signup@example.com',
      productSlug: PRODUCT,
    })
    expect(signup.status).toBe(200)
    const sendOther = await scope.call(endpoint(notifySend, 'admin'), {
      productSlug: OTHER_PRODUCT,
      emailTitle: '再入荷',
      emailBody: '入荷しました',
    })
    expect(sendOther).toMatchObject({ status: 200, body: { recipientEmails: [pending.email] } })
    const sendDamaged = await scope.call(endpoint(notifySend, 'admin'), {
      productSlug: PRODUCT,
      emailTitle: '再入荷',
      emailBody: '入荷しました',
    })
    expect(sendDamaged.status).toBe(200)
  })

  it('a damaged record is "not found" to a status update, and can be deleted', async () => {
    const { scope } = await damagedScope()
    const ref = { id: 'res_damaged-1', productSlug: PRODUCT }
    const update = await scope.call(endpoint(reservationsStatus, 'admin'), {
      ...ref,
      status: 'confirmed',
    })
    expect(update).toMatchObject({ status: 404, body: { error: 'Reservation not found' } })
    const removed = await scope.call(endpoint(reservationsDelete, 'preorder'), { ids: [ref] })
    expect(removed.body).toMatchObject({ deletedCount: 1, deletedIds: [ref.id] })
    const { body } = await scope.call(endpoint(stats, 'admin'))
    expect(body.stats.reservations.unreadable).toBe(DAMAGE.length - 1)
  })
})
