import { describe, expect, it } from 'vitest'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import listEndpoint from '../../netlify/functions/admin-stock-list.js'
import stockEndpoint from '../../netlify/functions/admin-stock.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { OTHER_PRODUCT, PRODUCT, useStockEnvironment } from './stockTestKit.js'

const AUTO = {
  productSlug: PRODUCT,
  enabled: true,
  emailTitle: '{product} 再入荷しました',
  emailBody: '{url} からどうぞ。',
}

describe('POST /api/admin/stock', () => {
  const world = useStockEnvironment()

  it('sets quantities and answers the bulk shape, with unknown products in errors', async () => {
    const answer = await world.call(stockEndpoint, '/api/admin/stock', {
      items: [
        { productSlug: PRODUCT, quantity: 5 },
        { productSlug: 'no-such-product', quantity: 1 },
        { productSlug: OTHER_PRODUCT, quantity: 0 },
      ],
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      success: true,
      updated: [
        { productSlug: PRODUCT, quantity: 5, previous: null },
        { productSlug: OTHER_PRODUCT, quantity: 0, previous: null },
      ],
      errors: [{ productSlug: 'no-such-product', error: 'Product not found' }],
    })
    const again = await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: PRODUCT, quantity: 2 }],
    })
    expect(again.body).toEqual({
      success: true,
      updated: [{ productSlug: PRODUCT, quantity: 2, previous: 5 }],
    })
    expect(await world.repositories().stock.get({ productSlug: PRODUCT })).toMatchObject({
      quantity: 2,
      source: 'admin',
      lastEventId: null,
    })
  })

  it('refuses bad bodies with the documented texts, changing nothing', async () => {
    const invalid = 'Each item needs a productSlug and a quantity (an integer, 0 or more)'
    const cases: [unknown, string][] = [
      [{}, 'items array is required'],
      [{ items: 'x' }, 'items array is required'],
      [{ items: [] }, 'items array cannot be empty'],
      [
        { items: Array.from({ length: 501 }, () => ({ productSlug: PRODUCT, quantity: 1 })) },
        'items array cannot exceed 500 items',
      ],
      [{ items: [{ productSlug: PRODUCT, quantity: 1.5 }] }, invalid],
      [{ items: [{ productSlug: PRODUCT, quantity: '3' }] }, invalid],
      [{ items: [{ productSlug: PRODUCT, quantity: 1 }, { quantity: 1 }] }, invalid],
    ]
    for (const [body, error] of cases) {
      const answer = await world.call(stockEndpoint, '/api/admin/stock', body)
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error })
    }
    expect(await world.repositories().stock.get({ productSlug: PRODUCT })).toBeNull()
  })

  it('is in the ADMIN group', async () => {
    const answer = await world.call(stockEndpoint, '/api/admin/stock', { items: [] }, 'wrong')
    expect(answer.status).toBe(401)
  })
})

describe('POST /api/admin/notify/auto and POST /api/admin/stock/list', () => {
  const world = useStockEnvironment()

  it('saves the settings with their defaults and lists them with quantity and waiting', async () => {
    const saved = await world.call(autoEndpoint, '/api/admin/notify/auto', AUTO)
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({
      success: true,
      productSlug: PRODUCT,
      auto: { ...AUTO, productSlug: undefined, perUnit: 1, intervalMinutes: 60, holdHours: 0 },
    })
    const repositories = world.repositories()
    await seedSubscription(repositories, { productSlug: PRODUCT })
    await seedSubscription(repositories, { productSlug: PRODUCT })
    await seedSubscription(repositories, { productSlug: PRODUCT, status: 'notified' })
    await seedSubscription(repositories, { productSlug: PRODUCT, isArchived: true })
    await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: OTHER_PRODUCT, quantity: 4 }],
    })

    const listed = await world.call(listEndpoint, '/api/admin/stock/list', {})
    expect(listed.status).toBe(200)
    const rows = listed.body.stock as Record<string, unknown>[]
    expect(rows.find((row) => row.productSlug === PRODUCT)).toEqual({
      productSlug: PRODUCT,
      quantity: null,
      updatedAt: null,
      waiting: 2,
      notWaiting: { optedOut: 0, unconfirmed: 0, suppressed: 0 },
      lineWaiting: 0,
      auto: { ...saved.body.auto },
      holds: { open: 0, claimed: 0, expired: 0 },
      nextWaveAt: null,
    })
    expect(rows.find((row) => row.productSlug === OTHER_PRODUCT)).toMatchObject({
      quantity: 4,
      waiting: 0,
      auto: null,
    })
    expect(rows.length).toBeGreaterThanOrEqual(14)
  })

  it('keeps the texts when turned off without them, and requires them to turn on', async () => {
    await world.call(autoEndpoint, '/api/admin/notify/auto', { ...AUTO, perUnit: 2 })
    const off = await world.call(autoEndpoint, '/api/admin/notify/auto', {
      productSlug: PRODUCT,
      enabled: false,
    })
    expect(off.body.auto).toEqual({
      enabled: false,
      emailTitle: AUTO.emailTitle,
      emailBody: AUTO.emailBody,
      perUnit: 2,
      intervalMinutes: 60,
      holdHours: 0,
    })
    const fresh = await world.call(autoEndpoint, '/api/admin/notify/auto', {
      productSlug: OTHER_PRODUCT,
      enabled: true,
      emailBody: 'x',
    })
    expect(fresh).toMatchObject({ status: 400, body: { error: 'emailTitle is required' } })
  })

  it('refuses bad settings with clear texts, and 404 for an unknown product', async () => {
    const cases: [unknown, number, string][] = [
      [{ enabled: true }, 400, 'productSlug is required'],
      [{ productSlug: PRODUCT }, 400, 'enabled must be true or false'],
      [{ ...AUTO, perUnit: 0 }, 400, 'perUnit must be an integer from 1 to 100'],
      [{ ...AUTO, intervalMinutes: 5 }, 400, 'intervalMinutes must be an integer from 10 to 10080'],
      [
        { ...AUTO, emailTitle: 'a\nb' },
        400,
        'emailTitle must be a single line (no line breaks or control characters)',
      ],
      [{ ...AUTO, productSlug: 'no-such-product' }, 404, 'Product not found'],
    ]
    for (const [body, status, error] of cases) {
      const answer = await world.call(autoEndpoint, '/api/admin/notify/auto', body)
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error })
    }
  })
})
