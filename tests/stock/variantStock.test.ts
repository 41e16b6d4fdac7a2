import { describe, expect, it } from 'vitest'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import historyEndpoint from '../../netlify/functions/admin-notify-history.js'
import sendEndpoint from '../../netlify/functions/admin-notify-send.js'
import listEndpoint from '../../netlify/functions/admin-stock-list.js'
import stockEndpoint from '../../netlify/functions/admin-stock.js'
import webhook from '../../netlify/functions/stock-webhook.js'
import { seedMany, seedSubscription } from '../restock/restockTestKit.js'
import { signatureHeader, useStockEnvironment } from './stockTestKit.js'

/**
 * Stock, automatic notices and sends of a product with variants, through the real handlers and
 * a real local Blobs server (record-only: no e-mail provider). mino-mug of the sample catalogue
 * has 藍 (ai, SKU-2001), 白 (shiro, SKU-2002) and 飴 (ame, SKU-2003).
 */

const MUG = 'mino-mug'
const AUTO = {
  productSlug: MUG,
  enabled: true,
  emailTitle: '{product} 再入荷',
  emailBody: 'ご購入は {url} から',
  perUnit: 1,
  intervalMinutes: 60,
}

describe('stock of a product with variants', () => {
  const world = useStockEnvironment()

  it('is kept per variant: a sku names its variant, productSlug + variant too', async () => {
    const body = JSON.stringify({ id: 'evt-1', items: [{ sku: 'SKU-2001', quantity: 4 }] })
    const hooked = await world.webhook(webhook, body, signatureHeader(body))
    expect(hooked.status).toBe(200)
    const set = await world.call(stockEndpoint, '/api/admin/stock', {
      items: [
        { productSlug: MUG, variant: 'shiro', quantity: 2 },
        { productSlug: MUG, quantity: 9 },
        { productSlug: MUG, variant: 'kuro', quantity: 1 },
      ],
    })
    expect(set.status).toBe(200)
    expect(set.body.updated).toEqual([
      expect.objectContaining({ productSlug: MUG, variant: 'shiro', quantity: 2 }),
    ])
    expect(set.body.errors).toEqual([
      expect.objectContaining({ productSlug: MUG, error: expect.stringContaining('variant') }),
      expect.objectContaining({ productSlug: MUG, error: 'Variant not found' }),
    ])

    const rows = (await world.call(listEndpoint, '/api/admin/stock/list', {})).body.stock
    const mug = rows.filter((row: { productSlug: string }) => row.productSlug === MUG)
    expect(mug.map((row: any) => [row.variant, row.quantity])).toEqual([
      ['ai', 4],
      ['shiro', 2],
      ['ame', null],
    ])
    // a product without variants keeps its one line, without a variant field
    const plain = rows.find((row: { productSlug: string }) => row.productSlug === 'chasen-takayama')
    expect(Object.keys(plain)).not.toContain('variant')
  })

  it('a rise of 藍 notifies only those waiting for 藍, oldest first, and names the variant', async () => {
    const repositories = world.repositories()
    const waitingAi = await seedMany(repositories, 4, { productSlug: MUG, variant: 'ai' })
    const waitingShiro = await seedMany(repositories, 3, { productSlug: MUG, variant: 'shiro' })
    const saved = await world.call(autoEndpoint, '/api/admin/notify/auto', AUTO)
    expect(saved.status).toBe(200)
    expect(saved.body.variants.map((line: { variant: string }) => line.variant)).toEqual([
      'ai',
      'shiro',
      'ame',
    ])
    await world.call(stockEndpoint, '/api/admin/stock', {
      items: [
        { productSlug: MUG, variant: 'ai', quantity: 0 },
        { productSlug: MUG, variant: 'shiro', quantity: 0 },
      ],
    })
    const raised = await world.call(stockEndpoint, '/api/admin/stock', {
      items: [{ productSlug: MUG, variant: 'ai', quantity: 2 }],
    })
    expect(raised.status).toBe(200)

    const { records } = await world.repositories().subscriptions.listProduct(MUG)
    const notified = records.filter((r) => r.status === 'notified').map((r) => r.id)
    expect(notified.sort()).toEqual(waitingAi.slice(0, 2).map((s) => s.id))
    expect(records.filter((r) => r.variant === 'shiro' && r.status !== 'pending')).toEqual([])
    expect(waitingShiro).toHaveLength(3)

    const history = (await world.repositories().history.list()).records
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({
      productSlug: MUG,
      variant: 'ai',
      emailTitle: '美濃焼 マグカップ（藍） 再入荷',
      recipientEmails: waitingAi.slice(0, 2).map((s) => s.email),
    })
    const listed = await world.call(historyEndpoint, '/api/admin/notify/history', {
      productSlug: MUG,
      variant: 'shiro',
    })
    expect(listed.status).toBe(200)
    expect(listed.body.notifications).toEqual([])
  })

  it('a manual send targets one variant or the whole product', async () => {
    const repositories = world.repositories()
    const ai = await seedSubscription(repositories, { productSlug: MUG, variant: 'ai' })
    const ame = await seedSubscription(repositories, { productSlug: MUG, variant: 'ame' })
    const send = (extra: Record<string, unknown>) =>
      world.call(sendEndpoint, '/api/admin/notify/send', {
        productSlug: MUG,
        emailTitle: '入荷しました',
        emailBody: '本文',
        ...extra,
      })
    const refused = await send({ variant: 'kuro' })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe(
      'Unknown variant "kuro": this product\'s variants are ai, shiro, ame',
    )
    const plain = await world.call(sendEndpoint, '/api/admin/notify/send', {
      productSlug: 'chasen-takayama',
      variant: 'ai',
      emailTitle: 't',
      emailBody: 'b',
    })
    expect(plain.body).toEqual({ success: false, error: 'This product has no variants' })

    const one = await send({ variant: 'ame' })
    expect(one.status).toBe(200)
    let stored = (await world.repositories().subscriptions.listProduct(MUG)).records
    expect(stored.find((r) => r.id === ame.id)?.status).toBe('notified')
    expect(stored.find((r) => r.id === ai.id)?.status).toBe('pending')

    const whole = await send({})
    expect(whole.status).toBe(200)
    stored = (await world.repositories().subscriptions.listProduct(MUG)).records
    expect(stored.find((r) => r.id === ai.id)?.status).toBe('notified')
    const history = (await world.repositories().history.list()).records
    expect(history.map((h) => h.variant ?? null).sort()).toEqual(['ame', null])
  })
})
