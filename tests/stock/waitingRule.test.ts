import { describe, expect, it } from 'vitest'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import historyEndpoint from '../../netlify/functions/admin-notify-history.js'
import sendEndpoint from '../../netlify/functions/admin-notify-send.js'
import statusEndpoint from '../../netlify/functions/admin-notify-status.js'
import stockListEndpoint from '../../netlify/functions/admin-stock-list.js'
import stockEndpoint from '../../netlify/functions/admin-stock.js'
import webhook from '../../netlify/functions/stock-webhook.js'
import { seedMany } from '../restock/restockTestKit.js'
import { OTHER_PRODUCT, PRODUCT, signatureHeader, useStockEnvironment } from './stockTestKit.js'

/**
 * One rule decides who is waiting for a restock e-mail, and the stock list's count, a manual
 * send and an automatic wave all ask it: subscribers staff set back to 未通知 are waiting;
 * opt-outs without newer consent, unconfirmed double opt-in sign-ups and suppressed addresses are
 * not, and the stock list says how many are left out for which reason. A stock change answers
 * what the wave it started did; a preview says what a change would do before anything is stored.
 */

const AUTO = {
  productSlug: PRODUCT,
  enabled: true,
  emailTitle: '{product} 再入荷',
  emailBody: 'ご購入は {url} から',
  perUnit: 1,
  intervalMinutes: 60,
}

describe('who is waiting', () => {
  const world = useStockEnvironment()
  const stockRow = async (productSlug = PRODUCT) => {
    const answer = await world.call(stockListEndpoint, '/api/admin/stock/list', {})
    return answer.body.stock.find((row: { productSlug: string }) => row.productSlug === productSlug)
  }

  it('a subscriber staff set back to 未通知 after a send is in the next automatic wave', async () => {
    const [hanako] = await seedMany(world.repositories(), 1, { productSlug: PRODUCT })
    const sent = await world.call(sendEndpoint, '/api/admin/notify/send', {
      productSlug: PRODUCT,
      emailTitle: '再入荷',
      emailBody: 'お待たせしました。',
    })
    expect(sent.body.sentCount).toBe(1)
    const back = await world.call(statusEndpoint, '/api/admin-notify-status', {
      id: hanako.id,
      productSlug: PRODUCT,
      status: 'pending',
    })
    expect(back.body.subscription.status).toBe('pending')
    expect((await stockRow()).waiting).toBe(1)

    expect((await world.call(autoEndpoint, '/api/admin/notify/auto', AUTO)).status).toBe(200)
    await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: PRODUCT, quantity: 0 }],
    })
    const raised = await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: PRODUCT, quantity: 3 }],
    })
    expect(raised.body.updated[0].wave).toMatchObject({
      state: 'sent',
      recipients: 1,
      deliveryMode: 'record-only',
      nextAt: expect.any(String),
    })
    const history = await world.call(historyEndpoint, '/api/admin/notify/history', {
      productSlug: PRODUCT,
    })
    expect(history.body.notifications[0]).toMatchObject({ recipients: 1, trigger: { wave: 1 } })
    expect((await stockRow()).waiting).toBe(0)
  })

  it('the count, a manual send and a wave leave out opt-outs, unconfirmed sign-ups and suppressed addresses, and say why', async () => {
    const repositories = world.repositories()
    const waiting = await seedMany(repositories, 2, { productSlug: PRODUCT })
    await seedMany(repositories, 1, {
      productSlug: PRODUCT,
      unsubscribedAt: '2026-11-01T00:00:00.000Z',
      consentedAt: '2026-10-01T00:00:00.000Z',
    })
    const consentedAgain = await seedMany(repositories, 1, {
      productSlug: PRODUCT,
      unsubscribedAt: '2026-11-01T00:00:00.000Z',
      consentedAt: '2026-11-02T00:00:00.000Z',
    })
    await seedMany(repositories, 1, { productSlug: PRODUCT, confirmedAt: null })
    const [bounced] = await seedMany(repositories, 1, { productSlug: PRODUCT })
    await repositories.suppressions.suppress(bounced.email, 'bounce', '2026-11-03T00:00:00.000Z')
    await seedMany(repositories, 1, { productSlug: PRODUCT, status: 'notified' })

    expect(await stockRow()).toMatchObject({
      waiting: 3,
      notWaiting: { optedOut: 1, unconfirmed: 1, suppressed: 1 },
    })
    expect((await stockRow(OTHER_PRODUCT)).notWaiting).toEqual({
      optedOut: 0,
      unconfirmed: 0,
      suppressed: 0,
    })
    const sent = await world.call(sendEndpoint, '/api/admin/notify/send', {
      productSlug: PRODUCT,
      emailTitle: '再入荷',
      emailBody: 'お待たせしました。',
    })
    expect([...sent.body.recipientEmails].sort()).toEqual(
      [...waiting, ...consentedAgain].map((s) => s.email).sort(),
    )
    expect(await stockRow()).toMatchObject({ waiting: 0 })
  })
})

describe('a stock change says what it did, a preview what it would do', () => {
  const world = useStockEnvironment()

  it('previews from → to and how many a wave would e-mail, stores nothing; the change then answers the wave', async () => {
    await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    await world.call(autoEndpoint, '/api/admin/notify/auto', { ...AUTO, perUnit: 2 })
    await world.call(stockEndpoint, '/api/admin/stock', {
      items: [
        { productSlug: PRODUCT, quantity: 0 },
        { productSlug: OTHER_PRODUCT, quantity: 4 },
      ],
    })
    const { default: previewEndpoint } =
      await import('../../netlify/functions/admin-stock-preview.js')
    const items = [
      { productSlug: PRODUCT, quantity: 2 },
      { productSlug: OTHER_PRODUCT, quantity: 4 },
      { productSlug: 'no-such-product', quantity: 1 },
    ]
    const preview = await world.call(previewEndpoint, '/api/admin/stock/preview', { items })
    expect(preview.status).toBe(200)
    expect(preview.body).toEqual({
      success: true,
      changes: [
        { productSlug: PRODUCT, previous: 0, quantity: 2, notify: 4 },
        { productSlug: OTHER_PRODUCT, previous: 4, quantity: 4, notify: 0 },
      ],
      errors: [{ productSlug: 'no-such-product', error: 'Product not found' }],
    })
    const list = await world.call(stockListEndpoint, '/api/admin/stock/list', {})
    const row = list.body.stock.find((r: { productSlug: string }) => r.productSlug === PRODUCT)
    expect(row.quantity).toBe(0)
    expect(row.waiting).toBe(5)

    const applied = await world.call(stockEndpoint, '/api/admin/stock', {
      items: items.slice(0, 2),
    })
    expect(applied.body.updated).toEqual([
      {
        productSlug: PRODUCT,
        quantity: 2,
        previous: 0,
        wave: {
          state: 'sent',
          notificationId: expect.stringMatching(/^notif_/),
          recipients: 4,
          deliveryMode: 'record-only',
          nextAt: expect.any(String),
        },
      },
      { productSlug: OTHER_PRODUCT, quantity: 4, previous: 4 },
    ])
  })

  it('the signed webhook answers the wave it started too', async () => {
    await seedMany(world.repositories(), 1, { productSlug: PRODUCT })
    await world.call(autoEndpoint, '/api/admin/notify/auto', AUTO)
    const body = JSON.stringify({
      id: `evt_${crypto.randomUUID()}`,
      items: [{ productSlug: PRODUCT, quantity: 3 }],
    })
    const answer = await world.webhook(webhook, body, signatureHeader(body))
    expect(answer.body.updated[0].wave).toMatchObject({ state: 'sent', recipients: 1 })
  })
})
