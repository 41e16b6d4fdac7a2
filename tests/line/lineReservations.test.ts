import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import erasePerson from '../../netlify/functions/admin-people-erase.js'
import reservationsList from '../../netlify/functions/admin-reservations-list.js'
import reservationsStatus from '../../netlify/functions/admin-reservations-status.js'
import { reservationList } from '../../src/build/api/recordAnswers.js'
import { reservationHold } from '../../netlify/functions/reservation-hold.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { retryKeyOf } from '../../src/lib/notifiers/linePusher.js'
import { createHoldToken } from '../../src/lib/restock/holdLink.js'
import { lineUserHash } from '../../src/lib/storage/lineContacts.js'
import { holdIdFor, withHoldsOpened } from '../../src/lib/storage/restockHolds.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, setApiTokens } from '../helpers/tokens.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { PRODUCT, newLineUserId, useLineEnvironment } from './lineTestKit.js'

/**
 * Reservations of LINE shoppers: a hold of a LINE sign-up claimed makes a reservation for the
 * LINE user (no address); its confirmation and status messages are pushed in LINE with retry
 * keys of the reservation and the event, and nothing is e-mailed; a shopper who is not a friend
 * is not pushed and a failed push is noted on the reservation (`lineDelivery`), cleared by the
 * next message pushed; an erase by LINE user id removes the reservation.
 */

const world = useLineEnvironment()
const SECRET = 'line-reservation-secret'
let resend: RecordingServer

beforeAll(async () => {
  resend = await startRecordingServer()
})
afterAll(() => resend.close())
beforeEach(() => {
  resend.requests.length = 0
  Object.assign(process.env, {
    UNSUBSCRIBE_SECRET: SECRET,
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: 'shop@example.test',
    RESEND_BASE_URL: resend.url,
    RESERVATION_STATUS_EMAIL_DELAY_MS: '0',
    RESERVATION_LINK_SECRET: 'line-reservation-link-secret',
  })
})

/** Records whether the LINE user has the official account as a friend (as login and follow do). */
async function setFriend(lineUserId: string, friend: boolean) {
  const hash = lineUserHash(lineUserId)
  await world.repositories().lineContacts.change(hash, (current) => ({
    hash,
    subscriptions: [],
    ...current,
    friend,
    friendSeenAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  }))
}

/** A LINE sign-up of PRODUCT with an open hold of one unit: the user and the hold link's token. */
async function lineHold(now: number) {
  const repositories = world.repositories()
  const lineUserId = newLineUserId()
  const subscription = await seedSubscription(repositories, {
    productSlug: PRODUCT,
    email: '',
    channel: 'line',
    lineUserId,
  })
  const request = { subscriptionId: subscription.id, notificationId: 'ntf_line-hold', hours: 24 }
  await repositories.stock.change({ productSlug: PRODUCT }, (current) =>
    withHoldsOpened({ ...current, quantity: 1 }, [request], now),
  )
  const holdId = holdIdFor(request.notificationId, request.subscriptionId)
  const token = createHoldToken(
    { target: { productSlug: PRODUCT }, holdId },
    now + 24 * 3_600_000,
    SECRET,
  )
  return { lineUserId, token }
}

async function openHold(token: string, now: number, method: 'GET' | 'POST') {
  const context = world.context()
  const body = method === 'POST' ? new URLSearchParams({ token, name: 'LINE 花子' }) : undefined
  const response = await reservationHold({ now: () => now })(
    new Request(`http://shop.test/reservation/hold?token=${encodeURIComponent(token)}`, {
      method,
      headers: {
        Accept: 'text/html',
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    }),
    context,
  )
  await context.settled()
  return { status: response.status, text: await response.text() }
}

async function admin(handler: typeof erasePerson, path: string, body: unknown) {
  setApiTokens()
  const context = world.context()
  const response = await handler(jsonRequest(path, body, { token: ADMIN_TOKEN }), context)
  await context.settled()
  return readJson(response)
}

describe('reservations of LINE shoppers', () => {
  it('a claimed hold of a LINE sign-up: the reservation is the LINE user’s, confirmed in one push, never e-mailed', async () => {
    const now = Date.now()
    const { lineUserId, token } = await lineHold(now)
    const page = await openHold(token, now, 'GET')
    expect(page.status).toBe(200)
    expect(page.text).toContain('ご連絡はLINEでお送りします。')
    world.standIn.pushes.length = 0

    const done = await openHold(token, now, 'POST')
    expect(done.status).toBe(200)
    expect(done.text).toContain('確認のメッセージをLINEでお送りしました。')
    const { records } = await world.repositories().reservations.list()
    expect(records).toHaveLength(1)
    const [reservation] = records
    expect(reservation).toMatchObject({
      email: '',
      channel: 'line',
      lineUserId,
      source: 'restock-hold',
    })
    expect(world.standIn.pushes).toHaveLength(1)
    const [push] = world.standIn.pushes
    expect(push.to).toBe(lineUserId)
    expect(push.retryKey).toBe(retryKeyOf(`line/reservation-confirmation/${reservation.id}`))
    expect(JSON.stringify(push.messages)).toContain('【ご予約受付】')
    expect(resend.requests.filter((request) => request.path.startsWith('/emails'))).toEqual([])

    const changed = await admin(reservationsStatus, '/api/admin-reservations-status', {
      id: reservation.id,
      productSlug: PRODUCT,
      status: 'confirmed',
    })
    expect(changed.status).toBe(200)
    expect(world.standIn.pushes).toHaveLength(2)
    const latest = (await world.repositories().reservations.get(reservation))!
    expect(world.standIn.pushes[1]).toMatchObject({
      to: lineUserId,
      retryKey: retryKeyOf(
        `line/reservation-status/${reservation.id}/confirmed/${latest.statusChangedAt}`,
      ),
    })
    expect(JSON.stringify(world.standIn.pushes[1].messages)).toContain('/reservation/manage?token=')
    expect(resend.requests.filter((request) => request.path.startsWith('/emails'))).toEqual([])
    expect(JSON.stringify(world.logs)).not.toContain(lineUserId)
  })

  it('without LINE configured the confirmation is skipped with a log line, and not e-mailed', async () => {
    const now = Date.now()
    const { lineUserId, token } = await lineHold(now)
    delete process.env.LINE_MESSAGING_CHANNEL_ACCESS_TOKEN
    world.standIn.pushes.length = 0
    expect((await openHold(token, now, 'POST')).status).toBe(200)
    expect(world.standIn.pushes).toEqual([])
    expect(world.logs.some((line) => line.event === 'reservation.line_skipped')).toBe(true)
    expect(resend.requests.filter((request) => request.path.startsWith('/emails'))).toEqual([])
    expect(JSON.stringify(world.logs)).not.toContain(lineUserId)
  })

  it('an erase by LINE user id removes the reservations made from the user’s holds', async () => {
    const now = Date.now()
    const { lineUserId, token } = await lineHold(now)
    expect((await openHold(token, now, 'POST')).status).toBe(200)
    const answer = await admin(erasePerson, '/api/admin/people/erase', { lineUserId })
    expect(answer.status).toBe(200)
    expect(answer.body.erased).toMatchObject({ reservations: 1, subscriptions: 1 })
    expect((await world.repositories().reservations.list()).records).toEqual([])
  })

  it('a shopper who is not a friend is not pushed; staff see it on the reservation until a push goes', async () => {
    const now = Date.now()
    const { lineUserId, token } = await lineHold(now)
    await setFriend(lineUserId, false)
    world.standIn.pushes.length = 0
    const offer = await openHold(token, now, 'GET')
    expect(offer.text).toContain('友だち追加されていないため、このままでは届きません。')
    const done = await openHold(token, now, 'POST')
    expect(done.status).toBe(200)
    expect(done.text).toContain('確認のメッセージはお送りできません。')
    expect(world.standIn.pushes).toEqual([])
    const [reservation] = (await world.repositories().reservations.list()).records
    expect(reservation.lineDelivery).toEqual({
      status: 'not-friend',
      at: expect.any(String),
      reason: 'not a friend',
    })
    const listed = await admin(reservationsList, '/api/admin-reservations-list', {})
    expect(listed.status).toBe(200)
    reservationList.parse(listed.body)
    expect(listed.body.reservations[0].lineDelivery).toMatchObject({ status: 'not-friend' })

    // the shopper adds the account: the next status message is pushed and the note goes
    await setFriend(lineUserId, true)
    const changed = await admin(reservationsStatus, '/api/admin-reservations-status', {
      id: reservation.id,
      productSlug: PRODUCT,
      status: 'confirmed',
    })
    expect(changed.status).toBe(200)
    expect(world.standIn.pushes.map(({ to }) => to)).toEqual([lineUserId])
    const latest = await world.repositories().reservations.get(reservation)
    expect(latest?.lineDelivery).toBeUndefined()
    expect(JSON.stringify(world.logs)).not.toContain(lineUserId)
  })

  it('a push LINE does not take is noted on the reservation as failed, with the reason', async () => {
    const now = Date.now()
    const { lineUserId, token } = await lineHold(now)
    // why: nothing listens there; the push fails (and its one retry)
    process.env.LINE_API_BASE_URL = 'http://127.0.0.1:9'
    expect((await openHold(token, now, 'POST')).status).toBe(200)
    const [reservation] = (await world.repositories().reservations.list()).records
    expect(reservation.lineDelivery).toMatchObject({
      status: 'failed',
      reason: 'LINE could not be reached (fetch failed)',
    })
    expect(world.logs.some((line) => line.event === 'reservation.line_failed')).toBe(true)
    expect(JSON.stringify(world.logs)).not.toContain(lineUserId)
  })
})
