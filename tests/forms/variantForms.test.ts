import { beforeAll, describe, expect, it } from 'vitest'
import * as availabilityModule from '../../netlify/functions/product-availability.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import signupHandler from '../../netlify/functions/notify-signup.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { fakeContext, type TestContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'
import { catalogueProduct, clearOutbound, TEXTS } from './formTestKit.js'

/**
 * Reservations and sign-ups of products with variants through the real handlers and a real
 * local Blobs server. Products of the sample catalogue (content/products): mino-mug (藍 ai, 白
 * shiro, 飴 ame; no cap) and shop-tshirt (S, M, L with the product's cap of 20 each; XL with
 * its own cap of 2, at most 1 per reservation, released a month later).
 */

const MUG = 'mino-mug'
const SHIRT = 'shop-tshirt'
const PLAIN = 'chasen-takayama'
const LIMIT_TEXT = 'この商品の予約は上限数に達しました。'
const VARIANT = {
  required: '種類を選択してください。',
  unknown: '指定された種類が見つかりません。',
  unexpected: 'この商品には種類の選択がありません。',
  notText: '種類の指定は文字列で入力してください。',
}

useBlobsServer()
beforeAll(clearOutbound)
const logs = useLogCapture()

let worlds = 0
/** Requests of one test against a store of its own (its own deploy context). */
function world() {
  const deployContext = `variants-${process.pid}-${++worlds}`
  const contexts: TestContext[] = []
  const context = () => {
    const created = fakeContext({ deployContext })
    contexts.push(created)
    return created
  }
  async function call(
    handler: (req: Request, context: any) => Promise<Response>,
    path: string,
    body?: unknown,
    method = 'POST',
  ) {
    const ctx = context()
    const response = await handler(jsonRequest(path, body, { method }), ctx)
    await ctx.settled()
    return readJson(response)
  }
  const email = () => `buyer${crypto.randomUUID().slice(0, 8)}@example.com`
  return {
    reserve: (body: Record<string, unknown>) =>
      call(reservationHandler, '/api/reservation', { name: '予約 太郎', email: email(), ...body }),
    signup: (body: Record<string, unknown>) =>
      call(signupHandler, '/api/notify-signup', { email: email(), ...body }),
    availability: (slug: string) =>
      call(availabilityModule.default, `/api/products/${slug}/availability`, undefined, 'GET'),
    repositories: () => openRepositories(context()),
  }
}

describe('the catalogue', () => {
  it('lists the variants of the sample products with their own settings', () => {
    expect(catalogueProduct(MUG).variants?.map((v) => [v.id, v.name, v.sku])).toEqual([
      ['ai', '藍', 'SKU-2001'],
      ['shiro', '白', 'SKU-2002'],
      ['ame', '飴', 'SKU-2003'],
    ])
    expect(catalogueProduct(SHIRT).variants?.find((v) => v.id === 'xl')).toMatchObject({
      reservationLimit: 2,
      maxPerReservation: 1,
      releaseDate: '2027-04-01',
    })
    expect(catalogueProduct(PLAIN).variants).toBeUndefined()
  })
})

describe('a variant on the customer forms', () => {
  it('reserves and signs up per variant; the records carry it and the e-mails name it', async () => {
    const w = world()
    const reserved = await w.reserve({ productSlug: MUG, variant: 'ai' })
    expect(reserved.status).toBe(200)
    const reservation = await w
      .repositories()
      .reservations.get({ id: reserved.body.reservationId, productSlug: MUG })
    expect(reservation).toMatchObject({ productSlug: MUG, variant: 'ai', status: 'pending' })

    const signed = await w.signup({ productSlug: MUG, variant: 'shiro', email: 'wait@example.com' })
    expect(signed.status).toBe(200)
    const subscription = await w
      .repositories()
      .subscriptions.get({ id: signed.body.subscriptionId, productSlug: MUG })
    expect(subscription).toMatchObject({ productSlug: MUG, variant: 'shiro', status: 'pending' })

    const subjects = eventsOf(logs, 'email.logged').map((line) => `${line.subject}\n${line.text}`)
    expect(subjects.some((text) => text.includes('美濃焼 マグカップ（藍）'))).toBe(true)
    expect(subjects.some((text) => text.includes('美濃焼 マグカップ（白）'))).toBe(true)
  })

  it('answers the documented 400 for a missing, unknown, unexpected or malformed variant', async () => {
    const w = world()
    const refused = (message: string) => ({
      success: false,
      error: TEXTS.invalid,
      details: [{ field: 'variant', message }],
    })
    for (const [body, message] of [
      [{ productSlug: MUG }, VARIANT.required],
      [{ productSlug: MUG, variant: '' }, VARIANT.required],
      [{ productSlug: MUG, variant: null }, VARIANT.required],
      [{ productSlug: MUG, variant: 'kuro' }, VARIANT.unknown],
      [{ productSlug: MUG, variant: 'AI' }, VARIANT.unknown],
      [{ productSlug: PLAIN, variant: 'ai' }, VARIANT.unexpected],
      [{ productSlug: MUG, variant: 7 }, VARIANT.notText],
    ] as const) {
      for (const answer of [await w.reserve(body), await w.signup(body)]) {
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body, JSON.stringify(body)).toEqual(refused(message))
      }
    }
    // nothing was stored
    expect((await w.repositories().reservations.listProduct(MUG)).records).toEqual([])
    expect((await w.repositories().subscriptions.listProduct(MUG)).records).toEqual([])
  })

  it('keeps one subscription per address, product and variant', async () => {
    const w = world()
    const email = 'same@example.com'
    const first = await w.signup({ email, productSlug: MUG, variant: 'ai' })
    const again = await w.signup({ email, productSlug: MUG, variant: 'ai' })
    const other = await w.signup({ email, productSlug: MUG, variant: 'ame' })
    expect(again.body.subscriptionId).toBe(first.body.subscriptionId)
    expect(other.body.subscriptionId).not.toBe(first.body.subscriptionId)
    const stored = (await w.repositories().subscriptions.listProduct(MUG)).records
    expect(stored.map((record) => record.variant).sort()).toEqual(['ai', 'ame'])
  })

  it('a product without variants stores no variant field', async () => {
    const w = world()
    const answer = await w.signup({ productSlug: PLAIN })
    const stored = await w
      .repositories()
      .subscriptions.get({ id: answer.body.subscriptionId, productSlug: PLAIN })
    expect(stored).not.toBeNull()
    expect(Object.keys(stored!)).not.toContain('variant')
  })
})

describe('caps per variant', () => {
  it('a cap of 2 on XL holds under 20 simultaneous reservations while M stays open', async () => {
    const w = world()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => w.reserve({ productSlug: SHIRT, variant: 'xl' })),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(2)
    expect(statuses.filter((status) => status === 409)).toHaveLength(18)
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body).toEqual({ success: false, error: LIMIT_TEXT, remaining: 0 })
    }
    const m = await w.reserve({ productSlug: SHIRT, variant: 'm', quantity: 3 })
    expect(m.status).toBe(200)

    const availability = (await w.availability(SHIRT)).body
    const line = (id: string) => availability.variants.find((v: any) => v.variant === id)
    expect(line('xl')).toMatchObject({ name: 'XL', reservable: false, remaining: 0 })
    expect(line('m')).toMatchObject({ name: 'M', reservable: true, remaining: 17 })
    expect(line('s')).toMatchObject({ reservable: true, remaining: 20 })
    expect(availability).toMatchObject({ reservable: true, remaining: 57 })
    const held = (await w.repositories().reservations.listProduct(SHIRT)).records
    expect(held.filter((r) => r.variant === 'xl')).toHaveLength(2)
  })

  it("a variant's own maxPerReservation applies, else the product's", async () => {
    const w = world()
    const xl = await w.reserve({ productSlug: SHIRT, variant: 'xl', quantity: 2 })
    expect(xl.status).toBe(400)
    expect(xl.body.details).toEqual([{ field: 'quantity', message: expect.stringContaining('1') }])
    expect((await w.reserve({ productSlug: SHIRT, variant: 'l', quantity: 3 })).status).toBe(200)
    expect((await w.reserve({ productSlug: SHIRT, variant: 'l', quantity: 4 })).status).toBe(400)
  })

  it('availability of a product without variants has no variants field', async () => {
    const w = world()
    const answer = await w.availability(PLAIN)
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).not.toContain('variants')
  })
})
