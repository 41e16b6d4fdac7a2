import { describe, expect, it } from 'vitest'
import webhook from '../../netlify/functions/stock-webhook.js'
import {
  isValidWebhookSignature,
  webhookSignature,
} from '../../src/lib/signing/webhookSignature.js'
import {
  PRODUCT,
  PRODUCT_SKU,
  signatureHeader,
  useStockEnvironment,
  WEBHOOK_SECRET,
} from './stockTestKit.js'

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0)
const SECONDS = NOW / 1000
const BODY = '{"id":"evt_1","items":[{"sku":"SKU-1001","quantity":3}]}'

function header(secrets: string[], seconds = SECONDS): string {
  return [
    `t=${seconds}`,
    ...secrets.map((secret) => `v1=${webhookSignature(secret, seconds, BODY)}`),
  ].join(',')
}

describe('isValidWebhookSignature (the clock is a parameter)', () => {
  const check = (value: string | null, now = NOW, rawBody = BODY) =>
    isValidWebhookSignature({ header: value, rawBody, secret: WEBHOOK_SECRET, now })

  it('accepts the HMAC-SHA256 of "<t>.<body>" in hex', () => {
    expect(check(header([WEBHOOK_SECRET]))).toBe(true)
  })

  it('refuses another secret, another body, a missing or malformed header', () => {
    expect(check(header(['another-secret']))).toBe(false)
    expect(check(header([WEBHOOK_SECRET]), NOW, BODY.replace('3', '4'))).toBe(false)
    expect(check(null)).toBe(false)
    expect(check('')).toBe(false)
    expect(check(`v1=${webhookSignature(WEBHOOK_SECRET, SECONDS, BODY)}`)).toBe(false)
    expect(check(`t=${SECONDS},v1=abc`)).toBe(false)
    expect(check(`t=${SECONDS},v0=${webhookSignature(WEBHOOK_SECRET, SECONDS, BODY)}`)).toBe(false)
  })

  it('accepts up to 5 minutes either way and refuses a stale or future timestamp', () => {
    expect(check(header([WEBHOOK_SECRET], SECONDS - 300))).toBe(true)
    expect(check(header([WEBHOOK_SECRET], SECONDS - 301))).toBe(false)
    expect(check(header([WEBHOOK_SECRET], SECONDS + 300))).toBe(true)
    expect(check(header([WEBHOOK_SECRET], SECONDS + 301))).toBe(false)
  })

  it('accepts several v1 while a secret is rotated: one match is enough, in any place', () => {
    expect(check(header(['old-secret', WEBHOOK_SECRET]))).toBe(true)
    expect(check(header([WEBHOOK_SECRET, 'old-secret']))).toBe(true)
    expect(check(header(['old-secret', 'older-secret']))).toBe(false)
  })
})

describe('POST /api/stock-webhook', () => {
  const world = useStockEnvironment()
  const event = (id: string, quantity = 3) =>
    JSON.stringify({ id, items: [{ sku: PRODUCT_SKU, quantity }] })

  it('applies a well-signed event (a product named by its sku)', async () => {
    const body = event('evt_good')
    const answer = await world.webhook(webhook, body, signatureHeader(body))
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      success: true,
      duplicate: false,
      updated: [{ productSlug: PRODUCT, quantity: 3, previous: null }],
    })
    const stored = await world.repositories().stock.get({ productSlug: PRODUCT })
    expect(stored).toMatchObject({ quantity: 3, source: 'webhook', lastEventId: 'evt_good' })
  })

  it('answers 401 Invalid signature to a bad, missing or stale signature and changes nothing', async () => {
    const body = event('evt_bad')
    const longAgo = 1_000_000_000 // 2001: stale whatever the day the test runs
    for (const signature of [
      signatureHeader(body, ['wrong-secret']),
      null,
      'garbage',
      signatureHeader(body, [WEBHOOK_SECRET], longAgo),
      signatureHeader(event('evt_bad', 99)),
    ]) {
      const answer = await world.webhook(webhook, body, signature)
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({ success: false, error: 'Invalid signature' })
    }
    expect(await world.repositories().stock.get({ productSlug: PRODUCT })).toBeNull()
  })

  it('checks the signature before the body: a badly signed non-JSON body is 401, not 400', async () => {
    const answer = await world.webhook(webhook, 'not json', signatureHeader('other'))
    expect(answer.status).toBe(401)
    const signed = await world.webhook(webhook, 'not json', signatureHeader('not json'))
    expect(signed.status).toBe(400)
  })

  it('accepts a rotated secret: the old and the new signature side by side', async () => {
    const body = event('evt_rotated')
    const answer = await world.webhook(
      webhook,
      body,
      signatureHeader(body, ['old', WEBHOOK_SECRET]),
    )
    expect(answer.status).toBe(200)
  })

  it('answers a replayed event id with 200 duplicate: true and changes nothing', async () => {
    const first = event('evt_replayed', 3)
    expect((await world.webhook(webhook, first, signatureHeader(first))).body.duplicate).toBe(false)
    const again = event('evt_replayed', 7)
    const answer = await world.webhook(webhook, again, signatureHeader(again))
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ success: true, duplicate: true })
    const stored = await world.repositories().stock.get({ productSlug: PRODUCT })
    expect(stored?.quantity).toBe(3)
  })

  it('answers 503 while STOCK_WEBHOOK_SECRET is unset', async () => {
    delete process.env.STOCK_WEBHOOK_SECRET
    const body = event('evt_unconfigured')
    const answer = await world.webhook(webhook, body, signatureHeader(body))
    expect(answer.status).toBe(503)
    expect(answer.body.error).toBe('Stock webhook is not configured')
  })

  it('validates a signed body: items, quantities, event id; unknown products per item', async () => {
    const cases: [unknown, string][] = [
      [{ items: [{ sku: PRODUCT_SKU, quantity: 1 }] }, 'id is required'],
      [{ id: 'evt_v1' }, 'items array is required'],
      [{ id: 'evt_v2', items: [] }, 'items array cannot be empty'],
      [
        { id: 'evt_v3', items: [{ sku: PRODUCT_SKU, quantity: -1 }] },
        'Each item needs a productSlug or sku and a quantity (an integer, 0 or more)',
      ],
      [
        { id: 'evt_v4', items: [{ quantity: 1 }] },
        'Each item needs a productSlug or sku and a quantity (an integer, 0 or more)',
      ],
    ]
    for (const [value, error] of cases) {
      const body = JSON.stringify(value)
      const answer = await world.webhook(webhook, body, signatureHeader(body))
      expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error })
    }
    const body = JSON.stringify({
      id: 'evt_mixed',
      items: [
        { sku: 'NO-SUCH-SKU', quantity: 1 },
        { productSlug: 'no-such-product', quantity: 1 },
        { productSlug: PRODUCT, quantity: 2 },
      ],
    })
    const answer = await world.webhook(webhook, body, signatureHeader(body))
    expect(answer.body).toEqual({
      success: true,
      duplicate: false,
      updated: [{ productSlug: PRODUCT, quantity: 2, previous: null }],
      errors: [
        { sku: 'NO-SUCH-SKU', error: 'Product not found' },
        { productSlug: 'no-such-product', error: 'Product not found' },
      ],
    })
  })
})
