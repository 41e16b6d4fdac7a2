import { beforeEach, describe, expect, it } from 'vitest'
import { orderWebhook } from '../../netlify/functions/order-webhook.js'
import auditEndpoint from '../../netlify/functions/admin-audit-list.js'
import erasePerson from '../../netlify/functions/admin-people-erase.js'
import exportPerson from '../../netlify/functions/admin-people-export.js'
import { orderWebhookAnswer, overviewAnswer } from '../../src/build/api/responseSchemas.js'
import { loadConfig } from '../../src/lib/config.js'
import { clickRecipient } from '../../src/lib/demand/clickLink.js'
import { createLogger } from '../../src/lib/log.js'
import { demandOverview } from '../../src/lib/overview/demandOverview.js'
import { openServices } from '../../src/lib/services.js'
import { webhookSignature } from '../../src/lib/signing/webhookSignature.js'
import type { NotificationHistory, NotifySubscription } from '../../src/lib/storage/records.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { SECRET, seedSubscription } from '../restock/restockTestKit.js'
import { OTHER_PRODUCT, PRODUCT, PRODUCT_SKU, useStockEnvironment } from '../stock/stockTestKit.js'

/**
 * POST /api/order-webhook on a real local Blobs server, on the test's clock: the signature (good,
 * bad, stale), the order id (a replay changes nothing), the sign-ups a purchase closes, the
 * notice an order is counted for (and its click), the overview's figures, and an erase.
 */

const ORDER_SECRET = 'order-webhook-secret'
const NOW = Date.UTC(2026, 10, 24, 3, 0, 0) // 12:00 JST
const DAY = 24 * 60 * 60 * 1000
const BUYER = 'hanako@example.com'

const world = useStockEnvironment()
beforeEach(() => {
  process.env.ORDER_WEBHOOK_SECRET = ORDER_SECRET
})

/** `t=…,v1=…` of `body` signed at `at` (ms) with each of `secrets`. */
function signature(body: string, at = NOW, secrets = [ORDER_SECRET]): string {
  const t = Math.floor(at / 1000)
  return [`t=${t}`, ...secrets.map((secret) => `v1=${webhookSignature(secret, t, body)}`)].join(',')
}

/** POSTs `rawBody` with `header` as `X-Order-Signature` to the webhook running at `now`. */
async function post(rawBody: string, header: string | null, now = NOW) {
  const headers: Record<string, string> = {}
  if (header !== null) headers['X-Order-Signature'] = header
  const context = world.context()
  const response = await orderWebhook({ now: () => now })(
    jsonRequest('/api/order-webhook', rawBody, { token: null, headers }),
    context,
  )
  await context.settled()
  const answer = await readJson(response)
  if (answer.status === 200) orderWebhookAnswer.parse(answer.body)
  return answer
}

const order = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'order_1001',
    email: BUYER,
    items: [{ sku: PRODUCT_SKU, quantity: 1 }],
    total: 6600,
    currency: 'JPY',
    ...fields,
  })

/** A restock notice as a finished delivery leaves it: e-mailed, complete. */
async function seedNotice(
  id: string,
  sentAt: number,
  recipients: string[],
  overrides: Partial<NotificationHistory> = {},
): Promise<NotificationHistory> {
  const notice: NotificationHistory = {
    id,
    productSlug: PRODUCT,
    emailTitle: '再入荷',
    emailBody: '入荷しました。',
    recipientEmails: recipients,
    sentCount: recipients.length,
    timestamp: new Date(sentAt).toISOString(),
    status: 'sent',
    failedRecipients: [],
    deliveryState: 'complete',
    deliveryMode: 'email',
    completedAt: new Date(sentAt + 60_000).toISOString(),
    ...overrides,
  }
  await world.repositories().history.create({ id }, notice)
  return notice
}

const notifiedAt = (at: number): Partial<NotifySubscription> => ({
  status: 'notified',
  notifiedAt: new Date(at).toISOString(),
})

describe('POST /api/order-webhook: the signature and the order id', () => {
  it('answers 401 Invalid signature to a bad, missing, altered or foreign signature; nothing changes', async () => {
    const pending = await seedSubscription(world.repositories(), { email: BUYER })
    const body = order()
    for (const header of [
      signature(body, NOW, ['wrong-secret']),
      null,
      'garbage',
      signature(order({ total: 1 })),
      `t=${Math.floor(NOW / 1000)},v1=${'0'.repeat(64)}`,
      // the stock webhook's header name with the right signature is no order signature
    ]) {
      const answer = await post(body, header)
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({ success: false, error: 'Invalid signature' })
    }
    const stockHeaded = await orderWebhook({ now: () => NOW })(
      jsonRequest('/api/order-webhook', body, {
        token: null,
        headers: { 'X-Stock-Signature': signature(body) },
      }),
      world.context(),
    )
    expect(stockHeaded.status).toBe(401)
    expect(await world.repositories().subscriptions.get(pending)).toEqual(pending)
    // the refused requests left no mark of their id: the genuine one still applies
    expect((await post(body, signature(body))).body.duplicate).toBe(false)
  })

  it('refuses a signature older or newer than 5 minutes (stale), on the webhook’s clock', async () => {
    const body = order()
    expect((await post(body, signature(body, NOW - 301_000))).status).toBe(401)
    expect((await post(body, signature(body, NOW + 301_000))).status).toBe(401)
    expect((await post(body, signature(body, NOW - 300_000))).status).toBe(200)
  })

  it('checks the signature before the body: a badly signed non-JSON body is 401, a signed one 400', async () => {
    expect((await post('not json', signature('other'))).status).toBe(401)
    expect((await post('not json', signature('not json'))).status).toBe(400)
  })

  it('answers a replayed order id with 200 duplicate: true and changes nothing', async () => {
    await seedSubscription(world.repositories(), { email: BUYER, ...notifiedAt(NOW - DAY) })
    await seedNotice('notif_replay', NOW - DAY, [BUYER])
    const body = order()
    const header = signature(body)
    expect((await post(body, header)).body.duplicate).toBe(false)
    // the very same request again (a captured one, within its 5 minutes), and a retry later
    expect((await post(body, header)).body).toEqual({ success: true, duplicate: true })
    const again = order({ total: 99999 })
    expect((await post(again, signature(again, NOW + DAY), NOW + DAY)).body.duplicate).toBe(true)
    const counted = await world.repositories().orderAttributions.countForNotice('notif_replay')
    expect(counted).toEqual({ orders: 1, ordersAfterClick: 0, units: 1, revenue: { JPY: 6600 } })
  })

  it('answers 503 while ORDER_WEBHOOK_SECRET is unset', async () => {
    delete process.env.ORDER_WEBHOOK_SECRET
    const body = order()
    const answer = await post(body, signature(body))
    expect(answer.status).toBe(503)
    expect(answer.body.error).toBe('Order webhook is not configured')
  })

  it('validates a signed body; an item naming no product is reported, the rest applied', async () => {
    const invalid = 'Each item needs a productSlug or sku and a quantity (an integer, 1 or more)'
    const cases: [Record<string, unknown>, string][] = [
      [{ id: undefined }, 'id is required'],
      [{ email: undefined }, 'email is required'],
      [{ email: 'not-an-address' }, 'email must be a valid e-mail address'],
      [{ items: undefined }, 'items array is required'],
      [{ items: [] }, 'items array cannot be empty'],
      [{ items: [{ sku: PRODUCT_SKU, quantity: 0 }] }, invalid],
      [{ items: [{ quantity: 1 }] }, invalid],
      [{ total: -1 }, 'total must be a number, 0 or more'],
      [{ currency: 'yen!' }, 'currency must be a three-letter code such as JPY'],
      [
        { at: 'yesterday' },
        'at must be an ISO 8601 time with its offset, e.g. 2026-11-24T10:30:00+09:00',
      ],
    ]
    for (const [fields, error] of cases) {
      const body = order(fields)
      const answer = await post(body, signature(body))
      expect({ fields, status: answer.status, error: answer.body.error }).toEqual({
        fields,
        status: 400,
        error,
      })
    }
    const body = order({
      id: 'order_mixed',
      items: [
        { sku: 'NO-SUCH-SKU', quantity: 1 },
        { productSlug: PRODUCT, quantity: 2 },
      ],
    })
    const answer = await post(body, signature(body))
    expect(answer.body).toEqual({
      success: true,
      duplicate: false,
      products: [
        {
          productSlug: PRODUCT,
          quantity: 2,
          closedSignups: 0,
          notificationId: null,
          clicked: false,
        },
      ],
      errors: [{ sku: 'NO-SUCH-SKU', error: 'Product not found' }],
    })
  })
})

describe('an order closes the loop', () => {
  it('closes the buyer’s pending sign-ups for the products bought, and no one else’s', async () => {
    const repositories = world.repositories()
    const mine = await seedSubscription(repositories, { email: BUYER })
    const mineOther = await seedSubscription(repositories, {
      email: BUYER,
      productSlug: OTHER_PRODUCT,
    })
    const someoneElse = await seedSubscription(repositories, { email: 'taro@example.com' })
    const body = order({ email: ' Hanako@Example.com ' })
    const answer = await post(body, signature(body))
    expect(answer.body.products).toEqual([
      { productSlug: PRODUCT, quantity: 1, closedSignups: 1, notificationId: null, clicked: false },
    ])
    expect(await repositories.subscriptions.get(mine)).toMatchObject({
      status: 'unsubscribed',
      unsubscribeReason: 'purchased',
      unsubscribedAt: new Date(NOW).toISOString(),
    })
    expect((await repositories.subscriptions.get(mineOther))?.status).toBe('pending')
    expect((await repositories.subscriptions.get(someoneElse))?.status).toBe('pending')
    const audit = await world.call(auditEndpoint, '/api/admin/audit/list', { recordId: mine.id })
    expect(audit.body.entries).toMatchObject([
      { actor: 'order-webhook', action: 'status', from: 'pending', to: 'unsubscribed' },
    ])
    // no log line carries the address
    expect(JSON.stringify(world.logs)).not.toContain('hanako@')
  })

  it('a sku naming one variant closes the sign-up for that variant only', async () => {
    const repositories = world.repositories()
    const mug = { email: BUYER, productSlug: 'mino-mug' }
    const ai = await seedSubscription(repositories, { ...mug, variant: 'ai' })
    const shiro = await seedSubscription(repositories, { ...mug, variant: 'shiro' })
    const body = order({ id: 'order_variant', items: [{ sku: 'SKU-2001', quantity: 2 }] })
    const answer = await post(body, signature(body))
    expect(answer.body.products).toEqual([
      {
        productSlug: 'mino-mug',
        variant: 'ai',
        quantity: 2,
        closedSignups: 1,
        notificationId: null,
        clicked: false,
      },
    ])
    expect((await repositories.subscriptions.get(ai))?.status).toBe('unsubscribed')
    expect((await repositories.subscriptions.get(shiro))?.status).toBe('pending')
  })

  it('counts the order for the latest notice that reached the buyer within 7 days, and its click', async () => {
    const repositories = world.repositories()
    const signup = await seedSubscription(repositories, {
      email: BUYER,
      ...notifiedAt(NOW - 2 * DAY),
    })
    await seedNotice('notif_older', NOW - 5 * DAY, [BUYER])
    const latest = await seedNotice('notif_latest', NOW - 2 * DAY, [BUYER, 'taro@example.com'])
    // later, but not for the buyer; e-mailed to the buyer but only recorded; failed for the buyer
    await seedNotice('notif_others', NOW - DAY, ['taro@example.com'])
    await seedNotice('notif_recorded', NOW - DAY, [BUYER], {
      deliveryMode: 'record-only',
      completedAt: new Date(NOW - DAY).toISOString(),
    })
    await seedNotice('notif_failed', NOW - 12 * 3600_000, [BUYER], {
      failedRecipients: [{ email: BUYER, error: 'bounced' }],
      sentCount: 0,
      status: 'failed',
    })
    // after the order: not the one that led to it
    await seedNotice('notif_after', NOW + 3600_000, [BUYER])
    expect(await repositories.demand.markClick(latest.id, clickRecipient(signup.id, SECRET))).toBe(
      true,
    )

    const body = order({
      items: [
        { sku: PRODUCT_SKU, quantity: 2 },
        { productSlug: OTHER_PRODUCT, quantity: 1 },
      ],
      total: 9000,
      at: new Date(NOW - 60_000).toISOString(),
    })
    const answer = await post(body, signature(body))
    expect(answer.body.products).toEqual([
      {
        productSlug: PRODUCT,
        quantity: 2,
        closedSignups: 0,
        notificationId: latest.id,
        clicked: true,
      },
      {
        productSlug: OTHER_PRODUCT,
        quantity: 1,
        closedSignups: 0,
        notificationId: null,
        clicked: false,
      },
    ])
    // its share of the total by units: 2 of 3
    expect(await repositories.orderAttributions.countForNotice(latest.id)).toEqual({
      orders: 1,
      ordersAfterClick: 1,
      units: 2,
      revenue: { JPY: 6000 },
    })

    // the overview shows it per notice: sent, clicks, orders, units, revenue, conversion
    const services = openServices(world.context(), loadConfig(process.env), createLogger('t'), {
      now: () => NOW,
    })
    const overview = await demandOverview(services, { days: 7 })
    overviewAnswer.parse({ success: true, ...overview })
    expect(overview.notices.find((notice) => notice.id === latest.id)).toMatchObject({
      sent: 2,
      clicks: 1,
      orders: 1,
      ordersAfterClick: 1,
      units: 2,
      revenue: { JPY: 6000 },
      conversionRate: 0.5,
    })
    expect(overview.notices.find((notice) => notice.id === 'notif_recorded')).toMatchObject({
      orders: 0,
      conversionRate: null,
    })
  })

  it('counts nothing for a notice more than ATTRIBUTION_DAYS before the order', async () => {
    await seedNotice('notif_week_ago', NOW - 7 * DAY - 60_000, [BUYER])
    const body = order()
    expect((await post(body, signature(body))).body.products[0].notificationId).toBeNull()
    process.env.ATTRIBUTION_DAYS = '8'
    try {
      const wider = order({ id: 'order_1002' })
      expect((await post(wider, signature(wider))).body.products[0].notificationId).toBe(
        'notif_week_ago',
      )
    } finally {
      delete process.env.ATTRIBUTION_DAYS
    }
  })

  it('an erase removes the link between the person and their orders; the counts stay', async () => {
    await seedSubscription(world.repositories(), { email: BUYER, ...notifiedAt(NOW - DAY) })
    await seedNotice('notif_erase', NOW - DAY, [BUYER])
    const body = order()
    await post(body, signature(body))
    const exported = await world.call(exportPerson, '/api/admin/people/export', { email: BUYER })
    expect(exported.body.orders).toEqual([
      { orderId: 'order_1001', productSlug: PRODUCT, notificationId: 'notif_erase' },
    ])
    const erased = await world.call(erasePerson, '/api/admin/people/erase', { email: BUYER })
    expect(erased.body.erased.orders).toBe(1)
    const again = await world.call(exportPerson, '/api/admin/people/export', { email: BUYER })
    expect(again.body.orders).toEqual([])
    expect(
      await world.repositories().orderAttributions.countForNotice('notif_erase'),
    ).toMatchObject({ orders: 1 })
    const { blobs } = await world.repositories().store.list({ prefix: 'order-attributions/' })
    for (const { key } of blobs) {
      expect(
        JSON.stringify(await world.repositories().store.get(key, { type: 'json' })),
      ).not.toMatch(/hanako|[0-9a-f]{64}/)
    }
  })
})
