import { beforeAll, describe, expect, it } from 'vitest'
import handler from '../../netlify/functions/reservation.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { blobsContextFor } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { catalogueProduct, clearOutbound, TEXTS } from './formTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { eventsOf, useLogCapture } from '../helpers/logs.js'

const PATH = '/api/reservation'
/** A product of the real catalogue (content/products). */
const PRODUCT = 'chasen-takayama'
useBlobsServer()
beforeAll(clearOutbound)
const logs = useLogCapture()
beforeAll(() => {
  process.env.ADMIN_API_TOKEN = 'admin-token'
})

async function post(body: unknown, context = fakeContext()) {
  return { ...(await readJson(await handler(jsonRequest(PATH, body), context))), context }
}

const valid = { name: '山田 花子', email: 'hanako@example.com', productSlug: PRODUCT }

describe('POST /api/reservation: success', () => {
  it('stores a pending reservation with exactly the documented fields and answers its id', async () => {
    const before = new Date().toISOString()
    const res = await post({
      name: '  山田 花子  ',
      email: '  Hanako.Yamada@Example.COM ',
      productSlug: PRODUCT,
      extra: 'ignored',
    })
    const after = new Date().toISOString()

    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(Object.keys(res.body).sort()).toEqual(['reservationId', 'success'])
    expect(res.body.success).toBe(true)
    expect(res.body.reservationId).toMatch(
      /^res_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )

    const stored = await openRepositories(fakeContext()).reservations.get({
      id: res.body.reservationId,
      productSlug: PRODUCT,
    })
    expect(stored).toEqual({
      id: res.body.reservationId,
      name: '山田 花子',
      email: 'hanako.yamada@example.com',
      productSlug: PRODUCT,
      status: 'pending',
      notes: '',
      createdAt: expect.any(String),
      respondedAt: null,
      quantity: 1,
    })
    expect(stored!.createdAt >= before && stored!.createdAt <= after).toBe(true)
    expect(new Date(stored!.createdAt).toISOString()).toBe(stored!.createdAt)
  })

  it('accepts several reservations from the same e-mail, each with its own id', async () => {
    const first = await post(valid)
    const second = await post({ ...valid, name: `${valid.name} (2)` })
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(first.body.reservationId).not.toBe(second.body.reservationId)
  })

  it('needs no token, even when admin tokens are configured', async () => {
    const res = await readJson(
      await handler(jsonRequest(PATH, valid, { token: 'wrong' }), fakeContext()),
    )
    expect(res.status).toBe(200)
  })

  it('accepts the limits themselves: a 100-character name (emoji count once) and a 254-character e-mail', async () => {
    const name = '😀'.repeat(100)
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`
    expect(email.length).toBe(254)
    const res = await post({ name, email, productSlug: PRODUCT })
    expect(res.status).toBe(200)
    await res.context.settled()
  })

  it('without chat webhooks or an e-mail provider: skips the chat with an info log and logs the rendered e-mail', async () => {
    const res = await post({ ...valid, email: 'logged@example.com' })
    await res.context.settled()
    const skipped = eventsOf(logs, 'notify.skipped')
    expect(skipped).toEqual([
      expect.objectContaining({
        level: 'info',
        destination: 'teamchat-reservation',
        reason: 'TEAMCHAT_RESERVATION_WEBHOOK_URL is not set',
      }),
    ])
    const [email] = eventsOf(logs, 'email.logged')
    expect(email).toMatchObject({ level: 'info', to: 'logged@example.com' })
    expect(email.subject).toContain(catalogueProduct(PRODUCT).title)
    expect(email.text).toContain('山田 花子 様')
    expect(email.text).toContain(res.body.reservationId)
    expect(email.text).toContain(`http://localhost:8888/products/${PRODUCT}`)
    // the community chat is never a destination of a reservation (§6)
    expect(logs.some((line) => line.destination === 'communitychat')).toBe(false)
  })
})

describe('POST /api/reservation: validation (400 with one detail per field)', () => {
  async function expectInvalid(body: unknown, details: { field: string; message: string }[]) {
    const res = await post(body)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: TEXTS.invalid, details })
    await res.context.settled()
    expect(eventsOf(logs, 'email.logged')).toEqual([])
  }

  it('names every missing field', () =>
    expectInvalid({}, [
      { field: 'name', message: TEXTS.nameRequired },
      { field: 'email', message: TEXTS.emailRequired },
      { field: 'productSlug', message: TEXTS.slugRequired },
    ]))

  it('treats null as missing', () =>
    expectInvalid({ ...valid, name: null }, [{ field: 'name', message: TEXTS.nameRequired }]))

  it('answers fields of the wrong type with the validation 400, not a 500', () =>
    expectInvalid({ name: 123, email: true, productSlug: [PRODUCT] }, [
      { field: 'name', message: TEXTS.nameNotText },
      { field: 'email', message: TEXTS.emailNotText },
      { field: 'productSlug', message: TEXTS.slugNotText },
    ]))

  it('rejects a name that is empty after trimming', () =>
    expectInvalid({ ...valid, name: ' \u3000 ' }, [{ field: 'name', message: TEXTS.nameRequired }]))

  it('rejects a name over 100 characters', () =>
    expectInvalid({ ...valid, name: 'あ'.repeat(101) }, [
      { field: 'name', message: TEXTS.nameTooLong },
    ]))

  it('rejects line breaks and control characters in a name', () =>
    expectInvalid({ ...valid, name: '山田\n花子' }, [
      { field: 'name', message: TEXTS.nameControl },
    ]))

  it.each(['not-an-email', 'a@b', 'a b@example.com', '@example.com', 'hanako@example..com'])(
    'rejects the e-mail %j',
    (email) => expectInvalid({ ...valid, email }, [{ field: 'email', message: TEXTS.emailFormat }]),
  )

  it('rejects an empty e-mail as missing', () =>
    expectInvalid({ ...valid, email: '   ' }, [{ field: 'email', message: TEXTS.emailRequired }]))

  it('rejects an e-mail over 254 characters (one message, not two)', () =>
    expectInvalid({ ...valid, email: `${'a'.repeat(250)}@example.com` }, [
      { field: 'email', message: TEXTS.emailTooLong },
    ]))

  it.each([
    'Chasen-Takayama',
    'chasen_takayama',
    '-chasen',
    'chasen-',
    'chasen--takayama',
    'chasen takayama',
    '../x',
  ])('rejects the product slug %j', (productSlug) =>
    expectInvalid({ ...valid, productSlug }, [{ field: 'productSlug', message: TEXTS.slugFormat }]),
  )

  it('rejects a product slug over 100 characters', () =>
    expectInvalid({ ...valid, productSlug: 'a'.repeat(101) }, [
      { field: 'productSlug', message: TEXTS.slugTooLong },
    ]))

  it('answers an unknown product with its own 400 and stores nothing', async () => {
    const res = await post({ ...valid, productSlug: 'no-such-product' })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: TEXTS.productNotFound })
    const stored = await openRepositories(fakeContext()).reservations.listProduct('no-such-product')
    expect(stored.records).toEqual([])
  })
})

describe('POST /api/reservation: HTTP conventions (D8)', () => {
  it.each([
    ['{"name": ', 'Invalid JSON body'],
    ['', 'Invalid JSON body'],
    ['[]', 'Request body must be a JSON object'],
    ['"text"', 'Request body must be a JSON object'],
    ['null', 'Request body must be a JSON object'],
  ])('answers the body %j with 400 %j', async (body, error) => {
    const res = await readJson(await handler(jsonRequest(PATH, body), fakeContext()))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error })
  })

  it('answers a GET with 405 and Allow', async () => {
    const res = await readJson(
      await handler(new Request(`http://localhost:8888${PATH}`), fakeContext()),
    )
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.body).toEqual({ success: false, error: 'Method not allowed' })
  })

  it('answers a CORS preflight from any origin', async () => {
    const req = new Request(`http://localhost:8888${PATH}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    const res = await handler(req, fakeContext())
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
  })

  it('answers a storage failure with 500 and the Japanese text, without detail, and sends nothing', async () => {
    process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor('http://127.0.0.1:9')
    const context = fakeContext({ requestId: 'req-store-down' })
    const response = await handler(jsonRequest(PATH, valid), context)
    const text = await response.clone().text()
    const res = await readJson(response)
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ success: false, error: TEXTS.internal })
    expect(text).not.toMatch(/at .*\.(ts|js)|Error|127\.0\.0\.1/)
    await context.settled()
    const [failure] = eventsOf(logs, 'request.failed')
    expect(failure).toMatchObject({ level: 'error', requestId: 'req-store-down' })
    expect(failure.stack).toEqual(expect.any(String))
    expect(eventsOf(logs, 'email.logged')).toEqual([])
    expect(eventsOf(logs, 'notify.skipped')).toEqual([])
  })
})

describe('POST /api/reservation: Idempotency-Key', () => {
  const KEY_REUSED =
    'この Idempotency-Key は別の内容の送信に使われています。内容を変えて送るときは、新しいキーを使ってください。'

  async function postWithKey(body: unknown, key: string | null, context = fakeContext()) {
    const headers: Record<string, string> = key === null ? {} : { 'Idempotency-Key': key }
    const request = jsonRequest(PATH, body, { headers })
    return { ...(await readJson(await handler(request, context))), context }
  }

  async function reservationsOf(email: string) {
    const { records } = await openRepositories(fakeContext()).reservations.listProduct(PRODUCT)
    return records.filter((record) => record.email === email)
  }

  it('makes a new reservation for every request without the header, the same body too (§4.10)', async () => {
    const body = { ...valid, email: 'twice@example.com' }
    const first = await postWithKey(body, null)
    const second = await postWithKey(body, null)
    expect([first.status, second.status]).toEqual([200, 200])
    expect(second.body.reservationId).not.toBe(first.body.reservationId)
    expect((await reservationsOf('twice@example.com')).map((r) => r.id).sort()).toEqual(
      [first.body.reservationId, second.body.reservationId].sort(),
    )
  })

  it('answers the first answer again for the same key and body, and makes and sends nothing more', async () => {
    const body = { ...valid, email: 'retry@example.com' }
    const key = crypto.randomUUID()
    const first = await postWithKey(body, key)
    await first.context.settled()
    const mailed = eventsOf(logs, 'email.logged').length
    // why: the same key, bare or as the draft's quoted string, with the body in another spelling
    const again = await postWithKey({ ...body, email: ' Retry@Example.com ' }, `"${key}"`)
    await again.context.settled()
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await reservationsOf('retry@example.com')).toHaveLength(1)
    expect(eventsOf(logs, 'email.logged')).toHaveLength(mailed)
  })

  it('refuses the same key with another body (422) and makes nothing', async () => {
    const key = crypto.randomUUID()
    const first = await postWithKey({ ...valid, email: 'other-body@example.com' }, key)
    expect(first.status).toBe(200)
    const other = await postWithKey({ ...valid, email: 'other-body@example.com', quantity: 2 }, key)
    expect(other.status).toBe(422)
    expect(other.body).toEqual({ success: false, error: KEY_REUSED })
    expect(await reservationsOf('other-body@example.com')).toHaveLength(1)
  })

  it('makes one reservation of ten simultaneous requests with one key, and answers each its id', async () => {
    const body = { ...valid, email: 'simultaneous@example.com' }
    const key = crypto.randomUUID()
    const answers = await Promise.all(Array.from({ length: 10 }, () => postWithKey(body, key)))
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200))
    const ids = new Set(answers.map((answer) => answer.body.reservationId))
    expect(ids.size).toBe(1)
    expect((await reservationsOf('simultaneous@example.com')).map((r) => r.id)).toEqual([...ids])
  })

  it('refuses a malformed key (400) before anything is made', async () => {
    for (const key of ['', '   ', 'x'.repeat(256), 'cl\u00e9']) {
      const answer = await postWithKey({ ...valid, email: 'bad-key@example.com' }, key)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toContain('Idempotency-Key ヘッダーが正しくありません。')
    }
    expect(await reservationsOf('bad-key@example.com')).toHaveLength(0)
  })

  it('lets browsers of any origin send the header (CORS preflight)', async () => {
    const preflight = await handler(
      new Request(`http://localhost:8888${PATH}`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://shop.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, idempotency-key',
        },
      }),
      fakeContext(),
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Idempotency-Key')
  })
})
