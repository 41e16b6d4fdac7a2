import { beforeEach, describe, expect, it } from 'vitest'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import { issueDeliveryTicket } from '../../src/lib/restock/deliveryTicket.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { captureLogs, type LogLine } from '../helpers/logs.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import {
  checkTicket as checkDeliveryTicket,
  FROM,
  SECRET,
  useRestockSettings,
} from './restockTestKit.js'

/**
 * The background delivery function admits a call only with a delivery ticket: signed with this
 * deploy's key, live, naming the notification of the body, and not spent before. The admin token
 * is not a ticket.
 */

useRestockSettings()
const PATH = '/.netlify/functions/notify-deliver-background'
const AT = Date.UTC(2026, 10, 23, 12, 0, 0)
/** How long a ticket lives (docs/architecture.md "Restock delivery"). */
const DELIVERY_TICKET_TTL_MS = 5 * 60 * 1000

beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.RESEND_API_KEY = 're_test'
  process.env.RESEND_FROM_EMAIL = FROM
})

async function callWith(ticket: string | null, notificationId: string) {
  const context = fakeContext()
  const response = await deliverModule(
    jsonRequest(PATH, { notificationId }, { token: ticket }),
    context,
  )
  await context.settled()
  return readJson(response)
}

/** The log lines of the current test from here on. */
function freshLogs(): LogLine[] {
  return captureLogs()
}

function rejections(logs: LogLine[]): string[] {
  return logs
    .filter((line) => line.event === 'restock.delivery.ticket_rejected')
    .map((line) => line.reason)
}

describe('checking a delivery ticket', () => {
  it('accepts its own ticket until it expires, and not from then on', () => {
    const ticket = issueDeliveryTicket('notif_a', SECRET, AT)
    expect(checkDeliveryTicket(ticket, SECRET, AT)).toMatchObject({
      ok: true,
      notificationId: 'notif_a',
      expiresAt: AT + DELIVERY_TICKET_TTL_MS,
    })
    expect(checkDeliveryTicket(ticket, SECRET, AT + DELIVERY_TICKET_TTL_MS - 1).ok).toBe(true)
    expect(checkDeliveryTicket(ticket, SECRET, AT + DELIVERY_TICKET_TTL_MS)).toEqual({
      ok: false,
      reason: 'expired',
    })
  })

  it('refuses a ticket signed with another key, an altered one and a malformed one', () => {
    const foreignKey = issueDeliveryTicket('notif_a', 'another-secret', AT)
    expect(checkDeliveryTicket(foreignKey, SECRET, AT)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    const [, signature] = issueDeliveryTicket('notif_a', SECRET, AT).split('.')
    const otherPayload = issueDeliveryTicket('notif_b', SECRET, AT).split('.')[0]
    expect(checkDeliveryTicket(`${otherPayload}.${signature}`, SECRET, AT)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    for (const malformed of ['', 'v1', 'v1.x', 'v2.a.b', 'v1.a.b.c', ADMIN_TOKEN]) {
      expect(checkDeliveryTicket(malformed, SECRET, AT).ok).toBe(false)
    }
  })

  it('never takes the unsubscribe secret itself, or an unsubscribe-style signature, as a ticket', () => {
    expect(checkDeliveryTicket(SECRET, SECRET, AT).ok).toBe(false)
  })
})

describe('POST /.netlify/functions/notify-deliver-background', () => {
  it('refuses the admin token, a badly signed ticket and an expired one with 401', async () => {
    const logs = freshLogs()
    const badlySigned = issueDeliveryTicket('notif_t1', 'another-secret', Date.now())
    const expired = issueDeliveryTicket('notif_t1', SECRET, Date.UTC(2020, 0, 1))
    for (const ticket of [ADMIN_TOKEN, badlySigned, expired]) {
      const { status, body } = await callWith(ticket, 'notif_t1')
      expect(status).toBe(401)
      expect(body).toEqual({ success: false, error: 'Unauthorized' })
    }
    expect(rejections(logs)).toEqual(['malformed', 'bad-signature', 'expired'])
  })

  it('refuses a ticket for another notification (foreign) with 401', async () => {
    const logs = freshLogs()
    const ticket = issueDeliveryTicket('notif_other', SECRET, Date.now())
    const { status, body } = await callWith(ticket, 'notif_t2')
    expect(status).toBe(401)
    expect(body).toEqual({ success: false, error: 'Unauthorized' })
    expect(rejections(logs)).toEqual(['foreign'])
  })

  it('admits a ticket once; the same ticket again (a replay) gets 401', async () => {
    const logs = freshLogs()
    const id = `notif_replay-${crypto.randomUUID()}`
    const ticket = issueDeliveryTicket(id, SECRET, Date.now())
    const first = await callWith(ticket, id)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ success: true, state: 'missing' })
    const replay = await callWith(ticket, id)
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual({ success: false, error: 'Unauthorized' })
    expect(rejections(logs)).toEqual(['replayed'])
  })
})
