import { describe, expect, it } from 'vitest'
import { postStockEvent } from '../../platform/stockSender.js'
import { webhookSignature } from '../../src/lib/signing/webhookSignature.js'
import { useRestockDevServer } from '../helpers/restockDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * Quiet hours and the order webhook end to end over HTTP (npm start, a local Resend stand-in).
 * The quiet hours are set to the two JST hours around the server's clock, so a rise at any hour
 * of the day falls inside them and waits for their end; the orders are signed on the server's
 * clock (and once ten minutes before it, which must be refused).
 */

const HOUR = 60 * 60 * 1000
const STOCK_SECRET = 'e2e-loop-stock-secret'
const ORDER_SECRET = 'e2e-loop-order-secret'
const START = Date.now()
const JST_HOUR = Math.floor((START + 9 * HOUR) / HOUR) % 24
const QUIET_UNTIL = (JST_HOUR + 2) % 24
const running = useRestockDevServer({
  QUIET_HOURS: `${JST_HOUR}-${QUIET_UNTIL}`,
  STOCK_WEBHOOK_SECRET: STOCK_SECRET,
  ORDER_WEBHOOK_SECRET: ORDER_SECRET,
})

const GRINDER = 'porlex-hand-grinder'
const DRIPPER = 'hario-v60-dripper'

function batchEmails(): { to: string; subject: string; text: string }[] {
  return running.resend.requests
    .filter((request) => request.path.startsWith('/emails/batch'))
    .flatMap((request) => request.json as { to: string; subject: string; text: string }[])
}

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  let value = await read()
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200))
    value = await read()
  }
  return value
}

/** POSTs an order signed at `seconds` (default: now) with `secret`. */
async function postOrder(
  order: unknown,
  seconds = Math.floor(Date.now() / 1000),
  secret = ORDER_SECRET,
) {
  const body = JSON.stringify(order)
  const response = await fetch(`${running.server.url}/api/order-webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Order-Signature': `t=${seconds},v1=${webhookSignature(secret, seconds, body)}`,
    },
    body,
  })
  return { status: response.status, body: await response.json() }
}

describe('quiet hours, end to end', () => {
  it('a rise inside the quiet hours sends nothing and answers when the wave goes: their end', async () => {
    const { server } = running
    for (const email of ['night-1@example.jp', 'night-2@example.jp']) {
      expect(
        (await server.postJson('/api/notify-signup', { email, productSlug: GRINDER })).status,
      ).toBe(200)
    }
    const auto = await server.postJson(
      '/api/admin/notify/auto',
      { productSlug: GRINDER, enabled: true, emailTitle: '{product} 再入荷', emailBody: '{url}' },
      ADMIN_TOKEN,
    )
    expect(auto.status).toBe(200)
    const event = (id: string, quantity: number) =>
      postStockEvent(server.url, STOCK_SECRET, { id, items: [{ productSlug: GRINDER, quantity }] })
    expect((await event('evt_loop_0', 0)).status).toBe(200)
    const raised = await event('evt_loop_1', 2)
    expect(raised.status).toBe(200)
    const [row] = raised.body.updated as { wave: { state: string; sendsAt: string } }[]
    expect(row.wave.state).toBe('quiet-hours')
    const sendsAt = Date.parse(row.wave.sendsAt)
    // the end of the quiet hours: QUIET_UNTIL:00 JST, within the next two hours
    expect(new Date(sendsAt + 9 * HOUR).getUTCHours()).toBe(QUIET_UNTIL)
    expect(new Date(sendsAt).getUTCMinutes()).toBe(0)
    expect(sendsAt).toBeGreaterThan(START)
    expect(sendsAt - START).toBeLessThanOrEqual(2 * HOUR)
    const list = await server.postJson('/api/admin/stock/list', {}, ADMIN_TOKEN)
    const stock = (list.body.stock as { productSlug: string; waiting: number }[]).find(
      (item) => item.productSlug === GRINDER,
    )
    expect(stock).toMatchObject({ waiting: 2 })
    expect(batchEmails().filter((email) => email.subject.includes('再入荷'))).toEqual([])
  }, 180_000)
})

describe('orders close the loop, end to end', () => {
  it('a notice, a click, a signed order: counted in the overview; a purchase closes a pending sign-up', async () => {
    const { server } = running
    const buyer = 'buyer@example.jp'
    for (const email of [buyer, 'other@example.jp']) {
      expect(
        (await server.postJson('/api/notify-signup', { email, productSlug: DRIPPER })).status,
      ).toBe(200)
    }
    // staff send now (quiet hours hold automatic waves only)
    const send = await server.postJson(
      '/api/admin/notify/send',
      { productSlug: DRIPPER, emailTitle: 'V60 再入荷', emailBody: 'お待たせしました。' },
      ADMIN_TOKEN,
    )
    expect(send.status).toBe(200)
    const noticeId = send.body.notificationId as string
    const emails = await until(batchEmails, (sent) => sent.some((email) => email.to === buyer))
    const mine = emails.find((email) => [email.to].flat()[0] === buyer)
    const click = /(http\S+\/api\/r\?\S+)/.exec(mine?.text ?? '')?.[1]
    expect(click).toBeDefined()
    const clicked = await fetch(click as string, { redirect: 'manual' })
    expect(clicked.status).toBe(302)
    // the delivery marks them notified once the stand-in accepted the batch
    await until(
      () =>
        server.postJson(
          '/api/admin-notify-list',
          { productSlug: DRIPPER, status: 'notified' },
          ADMIN_TOKEN,
        ),
      (answer) => (answer.body.subscriptions as unknown[]).length === 2,
    )
    // a third shopper waits, and buys in the shop
    const late = await server.postJson('/api/notify-signup', {
      email: 'late@example.jp',
      productSlug: DRIPPER,
    })
    expect(late.status).toBe(200)

    const order = {
      id: 'order_e2e_1',
      email: 'Buyer@Example.jp',
      items: [{ sku: 'SKU-1001', quantity: 2 }],
      total: 13200,
      currency: 'JPY',
    }
    // bad: a wrong secret; stale: signed ten minutes ago
    expect(await postOrder(order, undefined, 'wrong-secret')).toEqual({
      status: 401,
      body: { success: false, error: 'Invalid signature' },
    })
    expect((await postOrder(order, Math.floor(Date.now() / 1000) - 600)).status).toBe(401)
    const good = await postOrder(order)
    expect(good).toMatchObject({
      status: 200,
      body: {
        success: true,
        duplicate: false,
        products: [{ productSlug: DRIPPER, quantity: 2, notificationId: noticeId, clicked: true }],
      },
    })
    // replayed: changes nothing
    expect(await postOrder(order)).toEqual({
      status: 200,
      body: { success: true, duplicate: true },
    })
    const closing = await postOrder({
      id: 'order_e2e_2',
      email: 'late@example.jp',
      items: [{ productSlug: DRIPPER, quantity: 1 }],
    })
    expect(closing.body.products).toMatchObject([{ closedSignups: 1, notificationId: null }])
    const ended = await server.postJson(
      '/api/admin-notify-list',
      { productSlug: DRIPPER, status: 'unsubscribed' },
      ADMIN_TOKEN,
    )
    expect(ended.body.subscriptions).toMatchObject([
      { email: 'late@example.jp', unsubscribeReason: 'purchased' },
    ])

    const overview = await server.postJson('/api/admin/overview', {}, ADMIN_TOKEN)
    expect(overview.status).toBe(200)
    const notice = (overview.body.notices as { id: string }[]).find((n) => n.id === noticeId)
    expect(notice).toMatchObject({
      sent: 2,
      clicks: 1,
      orders: 1,
      ordersAfterClick: 1,
      units: 2,
      revenue: { JPY: 13200 },
      conversionRate: 0.5,
    })
  }, 180_000)
})
