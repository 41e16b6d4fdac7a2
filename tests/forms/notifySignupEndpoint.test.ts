import { beforeAll, describe, expect, it } from 'vitest'
import handler from '../../netlify/functions/notify-signup.js'
import { signupClaimKey as claimKey } from '../../src/lib/storage/blobLayout.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { blobsContextFor } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { catalogueProduct, clearOutbound, TEXTS } from './formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'

/** How old a claim whose record never appeared must be to be taken over (storage/recordClaims.ts). */
const CLAIM_WRITE_GRACE_MS = 3_000

const PATH = '/api/notify-signup'
/** Products of the real catalogue (content/products). */
const PRODUCT = 'chasen-takayama'
const OTHER_PRODUCT = 'kyusu-tokoname'
const CROWD_PRODUCT = 'nambu-tekki-kettle'
useBlobsServer()
beforeAll(clearOutbound)
const logs = useLogCapture()

async function signup(body: unknown) {
  const context = fakeContext()
  const res = await readJson(await handler(jsonRequest(PATH, body), context))
  await context.settled()
  return res
}

function subscriptions() {
  return openRepositories(fakeContext()).subscriptions
}

async function subscriptionsOf(email: string, productSlug = PRODUCT) {
  const all = (await subscriptions().listProduct(productSlug)).records
  return all.filter((subscription) => subscription.email === email)
}

/** Confirmation e-mails logged for `email` (no provider configured in this file). */
function confirmationsTo(email: string) {
  return eventsOf(logs, 'email.logged').filter((line) => line.to === email)
}

describe('POST /api/notify-signup: a new signup', () => {
  it('stores a pending subscription with exactly the documented fields and answers its id', async () => {
    const before = new Date().toISOString()
    const res = await signup({ email: ' New.Subscriber@Example.com ', productSlug: PRODUCT })
    const after = new Date().toISOString()

    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(Object.keys(res.body).sort()).toEqual(['queue', 'subscriptionId', 'success'])
    expect(res.body.success).toBe(true)
    // why: the first sign-up of the product in this file: first in its queue
    expect(res.body.queue).toEqual({ place: 1, waiting: 1 })
    expect(res.body.subscriptionId).toMatch(/^ntf_\d{13}-[0-9a-f]{10}$/)

    const stored = await subscriptions().get({ id: res.body.subscriptionId, productSlug: PRODUCT })
    expect(stored).toEqual({
      id: res.body.subscriptionId,
      email: 'new.subscriber@example.com',
      productSlug: PRODUCT,
      status: 'pending',
      createdAt: expect.any(String),
      notifiedAt: null,
      consentedAt: stored!.createdAt,
    })
    expect(stored!.createdAt >= before && stored!.createdAt <= after).toBe(true)
    const idMs = Number(res.body.subscriptionId.slice(4, 17))
    expect(idMs).toBe(Date.parse(stored!.createdAt))
  })

  it('sends the confirmation e-mail (logged without a provider) and skips both chats with an info log', async () => {
    const res = await signup({ email: 'confirm@example.com', productSlug: PRODUCT })
    const [email] = confirmationsTo('confirm@example.com')
    expect(email.subject).toContain(catalogueProduct(PRODUCT).title)
    expect(email.text).toContain(`http://localhost:8888/products/${PRODUCT}`)
    expect(res.status).toBe(200)
    expect(
      eventsOf(logs, 'notify.skipped')
        .map((line) => [line.destination, line.reason])
        .sort(),
    ).toEqual([
      ['communitychat', 'COMMUNITYCHAT_WEBHOOK_URL is not set'],
      ['teamchat-restock', 'TEAMCHAT_RESTOCK_WEBHOOK_URL is not set'],
    ])
  })

  it('ignores a name and other extra fields', async () => {
    const res = await signup({ email: 'extra@example.com', productSlug: PRODUCT, name: 123 })
    expect(res.status).toBe(200)
  })
})

describe('POST /api/notify-signup: one pending subscription per e-mail and product (D2)', () => {
  it('answers a repeated signup with the existing id and sends nothing again', async () => {
    const first = await signup({ email: 'repeat@example.com', productSlug: PRODUCT })
    const second = await signup({ email: '  REPEAT@example.com', productSlug: PRODUCT })
    expect(second.status).toBe(200)
    expect(second.body).toEqual({
      success: true,
      subscriptionId: first.body.subscriptionId,
      queue: first.body.queue,
    })
    expect(await subscriptionsOf('repeat@example.com')).toHaveLength(1)
    expect(confirmationsTo('repeat@example.com')).toHaveLength(1)
  })

  it('keeps products apart: the same e-mail may wait for two products', async () => {
    const a = await signup({ email: 'two-products@example.com', productSlug: PRODUCT })
    const b = await signup({ email: 'two-products@example.com', productSlug: OTHER_PRODUCT })
    expect(a.body.subscriptionId).not.toBe(b.body.subscriptionId)
    expect(await subscriptionsOf('two-products@example.com', OTHER_PRODUCT)).toHaveLength(1)
  })

  it('stores one subscription for two identical signups arriving at once; both answer its id', async () => {
    const body = { email: 'twins@example.com', productSlug: PRODUCT }
    const [a, b] = await Promise.all([signup(body), signup(body)])
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    expect(a.body.subscriptionId).toBe(b.body.subscriptionId)
    const stored = await subscriptionsOf('twins@example.com')
    expect(stored.map((subscription) => subscription.id)).toEqual([a.body.subscriptionId])
    expect(confirmationsTo('twins@example.com')).toHaveLength(1)
  })

  it('stores one subscription for five identical signups arriving at once', async () => {
    const body = { email: 'quints@example.com', productSlug: PRODUCT }
    const answers = await Promise.all(Array.from({ length: 5 }, () => signup(body)))
    const ids = new Set(answers.map((answer) => answer.body.subscriptionId))
    expect(ids.size).toBe(1)
    expect(await subscriptionsOf('quints@example.com')).toHaveLength(1)
  })

  it('stores one subscription for 100 identical signups arriving at once; all answer its id', async () => {
    const body = { email: 'hundred@example.com', productSlug: PRODUCT }
    const answers = await Promise.all(Array.from({ length: 100 }, () => signup(body)))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    const ids = new Set(answers.map((answer) => answer.body.subscriptionId))
    expect(ids.size).toBe(1)
    const stored = await subscriptionsOf('hundred@example.com')
    expect(stored.map((subscription) => subscription.id)).toEqual([...ids])
    expect(confirmationsTo('hundred@example.com')).toHaveLength(1)
  })

  it('stores all 50 of 50 simultaneous signups with different e-mails for one product', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `crowd-${i}@example.com`)
    const answers = await Promise.all(
      emails.map((email) => signup({ email, productSlug: CROWD_PRODUCT })),
    )
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    const listed = (await subscriptions().listProduct(CROWD_PRODUCT)).records
    const crowd = listed.filter((subscription) => subscription.email.startsWith('crowd-'))
    expect(crowd.map((s) => s.email).sort()).toEqual([...emails].sort())
    expect(new Set(crowd.map((s) => s.id))).toEqual(
      new Set(answers.map((answer) => answer.body.subscriptionId)),
    )
  })

  it.each<[string, Partial<NotifySubscription>]>([
    ['notified', { status: 'notified', notifiedAt: new Date().toISOString() }],
    ['unsubscribed', { status: 'unsubscribed' }],
    ['archived while pending', { isArchived: true, archivedAt: new Date().toISOString() }],
  ])('creates a new subscription once the previous one is %s', async (label, change) => {
    const email = `again-${label.replace(/\W+/g, '-')}@example.com`
    const first = await signup({ email, productSlug: PRODUCT })
    const ref = { id: first.body.subscriptionId, productSlug: PRODUCT }
    const previous = (await subscriptions().get(ref))!
    await subscriptions().update(ref, () => ({ ...previous, ...change }))

    const second = await signup({ email, productSlug: PRODUCT })
    expect(second.status).toBe(200)
    expect(second.body.subscriptionId).not.toBe(first.body.subscriptionId)
    const stored = await subscriptionsOf(email)
    expect(stored.find((s) => s.id === second.body.subscriptionId)?.status).toBe('pending')
    expect(stored.find((s) => s.id === first.body.subscriptionId)).toMatchObject(change)
    expect(confirmationsTo(email)).toHaveLength(2)

    const third = await signup({ email, productSlug: PRODUCT })
    expect(third.body.subscriptionId).toBe(second.body.subscriptionId)
  })

  it('waits for the subscription of a fresh claim (its winner is still writing) and answers it', async () => {
    const email = 'in-flight@example.com'
    const store = openStore(RECORDS_STORE, fakeContext())
    await store.setJSON(claimKey(PRODUCT, email), {
      subscriptionId: 'ntf_1-inflight',
      claimedAt: new Date().toISOString(),
    })
    const pending = signup({ email, productSlug: PRODUCT })
    const ref = { id: 'ntf_1-inflight', productSlug: PRODUCT }
    await subscriptions().create(ref, {
      ...ref,
      email,
      status: 'pending',
      createdAt: new Date().toISOString(),
      notifiedAt: null,
    })
    const res = await pending
    expect(res.body).toEqual({
      success: true,
      subscriptionId: 'ntf_1-inflight',
      queue: { place: expect.any(Number), waiting: expect.any(Number) },
    })
    // why: the newest sign-up of the product is the last in its queue
    expect(res.body.queue.place).toBe(res.body.queue.waiting)
    expect(confirmationsTo(email)).toHaveLength(0)
    expect(await subscriptionsOf(email)).toHaveLength(1)
  })

  it('finds a pending subscription that has no claim (imported, or set back to pending) and sends nothing', async () => {
    const email = 'unclaimed@example.com'
    const ref = { id: 'ntf_2-imported', productSlug: PRODUCT }
    await subscriptions().create(ref, {
      ...ref,
      email,
      status: 'pending',
      createdAt: '2026-01-01T00:00:00.000Z',
      notifiedAt: null,
    })
    const res = await signup({ email, productSlug: PRODUCT })
    // why: signed up before everyone else of the product: first in its queue
    expect(res.body).toEqual({
      success: true,
      subscriptionId: 'ntf_2-imported',
      queue: { place: 1, waiting: expect.any(Number) },
    })
    expect(confirmationsTo(email)).toHaveLength(0)
    expect(await subscriptionsOf(email)).toHaveLength(1)
  })

  it('takes over an abandoned claim (older than the grace period, no subscription)', async () => {
    const email = 'abandoned@example.com'
    const store = openStore(RECORDS_STORE, fakeContext())
    await store.setJSON(claimKey(PRODUCT, email), {
      subscriptionId: 'ntf_1-abandoned',
      claimedAt: new Date(Date.now() - CLAIM_WRITE_GRACE_MS - 1000).toISOString(),
    })
    const res = await signup({ email, productSlug: PRODUCT })
    expect(res.body.subscriptionId).not.toBe('ntf_1-abandoned')
    expect((await subscriptionsOf(email)).map((s) => s.id)).toEqual([res.body.subscriptionId])
  })

  it('keeps the e-mail address out of the claim key', () => {
    const key = claimKey(PRODUCT, 'Someone@Example.com')
    expect(key).toMatch(new RegExp(`^notify-claims/${PRODUCT}/[0-9a-f]{64}$`))
    expect(key).toBe(claimKey(PRODUCT, ' someone@example.com'))
  })
})

describe('POST /api/notify-signup: errors', () => {
  async function expectInvalid(body: unknown, details: { field: string; message: string }[]) {
    const res = await signup(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: TEXTS.invalid, details })
  }

  it('names every missing field', () =>
    expectInvalid({}, [
      { field: 'email', message: TEXTS.emailRequired },
      { field: 'productSlug', message: TEXTS.slugRequired },
    ]))

  it('answers fields of the wrong type with the validation 400', () =>
    expectInvalid({ email: 42, productSlug: { slug: 'x' } }, [
      { field: 'email', message: TEXTS.emailNotText },
      { field: 'productSlug', message: TEXTS.slugNotText },
    ]))

  it('rejects a malformed e-mail and slug together', () =>
    expectInvalid({ email: 'nope', productSlug: 'Nope!' }, [
      { field: 'email', message: TEXTS.emailFormat },
      { field: 'productSlug', message: TEXTS.slugFormat },
    ]))

  it('rejects over-long fields', () =>
    expectInvalid({ email: `${'x'.repeat(243)}@example.com`, productSlug: 'a'.repeat(101) }, [
      { field: 'email', message: TEXTS.emailTooLong },
      { field: 'productSlug', message: TEXTS.slugTooLong },
    ]))

  it('answers an unknown product with its own 400', async () => {
    const res = await signup({ email: 'unknown@example.com', productSlug: 'no-such-product' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: TEXTS.productNotFound })
    expect(confirmationsTo('unknown@example.com')).toHaveLength(0)
  })

  it.each([
    ['{', 'Invalid JSON body'],
    ['', 'Invalid JSON body'],
    ['[1]', 'Request body must be a JSON object'],
  ])('answers the body %j with 400 %j', async (body, error) => {
    const res = await signup(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error })
  })

  it('answers a PUT with 405 and Allow, and a preflight with CORS *', async () => {
    const put = await readJson(
      await handler(jsonRequest(PATH, {}, { method: 'PUT' }), fakeContext()),
    )
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('POST, OPTIONS')
    expect(put.body).toEqual({ success: false, error: 'Method not allowed' })

    const preflight = await handler(
      new Request(`http://localhost:8888${PATH}`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://anywhere.example', 'Access-Control-Request-Method': 'POST' },
      }),
      fakeContext(),
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('answers a storage failure with 500 and the Japanese text, without detail', async () => {
    process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor('http://127.0.0.1:9')
    const response = await handler(
      jsonRequest(PATH, { email: 'down@example.com', productSlug: PRODUCT }),
      fakeContext(),
    )
    const text = await response.clone().text()
    expect(response.status).toBe(500)
    expect(JSON.parse(text)).toEqual({ success: false, error: TEXTS.internal })
    expect(text).not.toMatch(/Error|stack|127\.0\.0\.1/)
    expect(eventsOf(logs, 'request.failed')).toHaveLength(1)
    expect(confirmationsTo('down@example.com')).toHaveLength(0)
  })
})
