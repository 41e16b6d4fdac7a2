import { describe, expect, it } from 'vitest'
import unsubscribe, { config } from '../../netlify/functions/notify-unsubscribe.js'
import {
  createUnsubscribeToken,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from '../../src/lib/compliance/unsubscribeToken.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import { PRODUCT_TITLE, SECRET, seedSubscription, useRestockSettings } from './restockTestKit.js'
import { captureLogs } from '../helpers/logs.js'

const restock = useRestockSettings()

const BASE = 'http://localhost:8888/api/notify-unsubscribe'

function tokenFor(subscription: Pick<NotifySubscription, 'id' | 'productSlug'>, secret = SECRET) {
  return createUnsubscribeToken(subscription, secret)
}

async function call(
  method: string,
  query: string,
  init: { body?: string; headers?: Record<string, string> } = {},
) {
  const response = await unsubscribe(
    new Request(`${BASE}${query}`, { method, body: init.body, headers: init.headers }),
    fakeContext(),
  )
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }

describe('unsubscribe tokens', () => {
  it('round-trips, names exactly one subscription and is stable', () => {
    const ref = { id: 'ntf_1-abc', productSlug: 'hario-v60-dripper' }
    const token = createUnsubscribeToken(ref, SECRET)
    expect(createUnsubscribeToken(ref, SECRET)).toBe(token)
    expect(verifyUnsubscribeToken(token, SECRET)).toEqual({ ok: true, ref })
    expect(verifyUnsubscribeToken(token, 'another-secret')).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    expect(unsubscribeUrl('https://shop.example/', token)).toBe(
      `https://shop.example/api/notify-unsubscribe?token=${token}`,
    )
  })

  it('refuses a payload swapped for another id or product, keeping the signature', () => {
    const token = createUnsubscribeToken({ id: 'ntf_1', productSlug: 'a' }, SECRET)
    const signature = token.split('.')[1]
    for (const ref of [
      { id: 'ntf_2', productSlug: 'a' },
      { id: 'ntf_1', productSlug: 'b' },
    ]) {
      const payload = Buffer.from(JSON.stringify(ref)).toString('base64url')
      expect(verifyUnsubscribeToken(`${payload}.${signature}`, SECRET)).toEqual({
        ok: false,
        reason: 'bad-signature',
      })
    }
  })

  it('refuses a payload with extra, reordered or re-encoded fields, keeping the signature (only the canonical form is signed)', () => {
    const ref = { id: 'ntf_1', productSlug: 'a' }
    const signature = createUnsubscribeToken(ref, SECRET).split('.')[1]
    const variants = [
      JSON.stringify({ ...ref, admin: true }),
      JSON.stringify({ productSlug: 'a', id: 'ntf_1' }),
      JSON.stringify(ref, null, 1),
      '{"id":"ntf_1","productSlug":"a","id":"ntf_1"}',
      '{"id":"ntf\\u005f1","productSlug":"a"}',
    ]
    for (const json of variants) {
      const payload = Buffer.from(json).toString('base64url')
      expect(verifyUnsubscribeToken(`${payload}.${signature}`, SECRET), json).toEqual({
        ok: false,
        reason: 'malformed',
      })
    }
    const padded = `${Buffer.from(JSON.stringify(ref)).toString('base64')}.${signature}`
    expect(verifyUnsubscribeToken(padded, SECRET).ok).toBe(false)
  })

  it.each([null, '', 'garbage', 'a.b.c', '!!!.abc', `${'e30'}.${'x'.repeat(43)}`])(
    'calls %j malformed',
    (token) => {
      expect(verifyUnsubscribeToken(token, SECRET)).toEqual({ ok: false, reason: 'malformed' })
    },
  )
})

describe('/api/notify-unsubscribe', () => {
  it('is routed at the link path', () => {
    expect(config.path).toBe('/api/notify-unsubscribe')
  })

  it('GET shows a Japanese confirmation page and changes nothing', async () => {
    const subscription = await seedSubscription(restock.repositories)
    const token = tokenFor(subscription)
    const { status, headers, text } = await call('GET', `?token=${encodeURIComponent(token)}`)
    expect(status).toBe(200)
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(headers.get('cache-control')).toBe('no-store')
    expect(headers.get('referrer-policy')).toBe('no-referrer')
    expect(text).toContain('配信を停止する')
    expect(text).toContain(PRODUCT_TITLE)
    expect(text).toContain('<form method="post" action="/api/notify-unsubscribe?token=')
    expect(text).toContain(`name="token" value="${token}"`)
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual(subscription)
  })

  it('escapes what it shows', async () => {
    const subscription = await seedSubscription(restock.repositories, {
      productSlug: '<img-src=x-onerror=alert(1)>',
    })
    const { status, text } = await call('GET', `?token=${tokenFor(subscription)}`)
    expect(status).toBe(200)
    expect(text).not.toContain('<img')
    expect(text).toContain('&lt;img-src=x-onerror=alert(1)&gt;')
  })

  it("POST from the page's button (token in the form body) unsubscribes", async () => {
    const subscription = await seedSubscription(restock.repositories)
    const body = new URLSearchParams({ token: tokenFor(subscription) }).toString()
    const { status, text } = await call('POST', '', { body, headers: FORM })
    expect(status).toBe(200)
    expect(text).toContain('配信停止の手続きが完了しました')
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual({
      ...subscription,
      status: 'unsubscribed',
      unsubscribedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
  })

  it('one-click POST (RFC 8058: token in the query, List-Unsubscribe=One-Click body) unsubscribes', async () => {
    const subscription = await seedSubscription(restock.repositories, {
      status: 'notified',
      notifiedAt: '2026-03-01T00:00:00.000Z',
    })
    const { status } = await call('POST', `?token=${tokenFor(subscription)}`, {
      body: 'List-Unsubscribe=One-Click',
      headers: FORM,
    })
    expect(status).toBe(200)
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual({
      ...subscription,
      status: 'unsubscribed',
      unsubscribedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
  })

  it('answers JSON to a caller that asks only for JSON, and a repeat is harmless', async () => {
    const subscription = await seedSubscription(restock.repositories)
    const headers = { Accept: 'application/json' }
    const query = `?token=${tokenFor(subscription)}`
    for (let attempt = 0; attempt < 2; attempt++) {
      const { status, headers: answer, text } = await call('POST', query, { headers })
      expect(status).toBe(200)
      expect(answer.get('content-type')).toBe('application/json; charset=utf-8')
      expect(JSON.parse(text)).toEqual({ success: true })
    }
    const again = await call('GET', query)
    expect(again.text).toContain('すでに配信停止の手続きが完了しています')
  })

  it('refuses a forged token with 403 and changes nothing', async () => {
    const subscription = await seedSubscription(restock.repositories)
    for (const method of ['GET', 'POST']) {
      const { status, text } = await call(method, `?token=${tokenFor(subscription, 'guessed')}`)
      expect(status).toBe(403)
      expect(text).toContain('配信停止リンクが無効です')
    }
    const forgedJson = await call('POST', `?token=${tokenFor(subscription, 'guessed')}`, {
      headers: { Accept: 'application/json' },
    })
    expect(JSON.parse(forgedJson.text)).toEqual({
      success: false,
      error: 'Unsubscribe link signature is not valid',
    })
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual(subscription)
  })

  it("refuses another subscription's token re-labelled for this one", async () => {
    const victim = await seedSubscription(restock.repositories)
    const mine = await seedSubscription(restock.repositories)
    const signature = tokenFor(mine).split('.')[1]
    const payload = Buffer.from(
      JSON.stringify({ id: victim.id, productSlug: victim.productSlug }),
    ).toString('base64url')
    const { status } = await call('POST', `?token=${payload}.${signature}`)
    expect(status).toBe(403)
    expect(await restock.repositories.subscriptions.get(victim)).toEqual(victim)
  })

  it('answers 400 to a missing or garbage token', async () => {
    for (const query of ['', '?token=', '?token=garbage', '?token=abc.def']) {
      const { status, text } = await call('POST', query, { headers: FORM, body: '' })
      expect(status).toBe(400)
      expect(text).toContain('配信停止リンクが正しくありません')
    }
    const json = await call('GET', '?token=garbage', { headers: { Accept: 'application/json' } })
    expect(JSON.parse(json.text)).toEqual({ success: false, error: 'Invalid unsubscribe link' })
  })

  it('answers 400 at once to a signed token naming an id that cannot be a record key', async () => {
    for (const ref of [
      { id: ' ', productSlug: 'hario-v60-dripper' },
      { id: 'ntf_1\u200b', productSlug: 'hario-v60-dripper' },
      { id: 'ntf_1', productSlug: 'a/b' },
      { id: 'x'.repeat(201), productSlug: 'hario-v60-dripper' },
    ]) {
      const json = await call('POST', `?token=${tokenFor(ref)}`, {
        headers: { Accept: 'application/json' },
      })
      expect(json.status, JSON.stringify(ref)).toBe(400)
      expect(JSON.parse(json.text)).toEqual({ success: false, error: 'Invalid unsubscribe link' })
    }
  })

  it('answers 404 for a valid token whose subscription is gone', async () => {
    const { status, text } = await call(
      'POST',
      `?token=${tokenFor({ id: 'ntf_0-deleted', productSlug: 'hario-v60-dripper' })}`,
    )
    expect(status).toBe(404)
    expect(text).toContain('ご登録が見つかりませんでした')
  })

  it('answers 405 with Allow to other methods', async () => {
    const { status, headers } = await call('DELETE', '')
    expect(status).toBe(405)
    expect(headers.get('allow')).toBe('GET, POST, OPTIONS')
  })

  it('answers 503 and logs a configuration error when UNSUBSCRIBE_SECRET is unset', async () => {
    const logs = captureLogs()
    const subscription = await seedSubscription(restock.repositories)
    const token = tokenFor(subscription)
    delete process.env.UNSUBSCRIBE_SECRET
    const { status } = await call('POST', `?token=${token}`)
    expect(status).toBe(503)
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual(subscription)
    const lines = logs.filter((line) => line.level !== 'info')
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: 'unsubscribe.misconfigured',
        errorName: 'MissingUnsubscribeSecretError',
      }),
    )
  })
})

describe('the shop on the unsubscribe pages', () => {
  it('the confirmation, done and 403 pages name the shop, its contact and link to the storefront', async () => {
    Object.assign(process.env, {
      SHOP_NAME: '株式会社テスト商店',
      SHOP_CONTACT: 'https://shop.example.test/contact',
      STOREFRONT_URL: 'https://store.example.test',
    })
    try {
      const subscription = await seedSubscription(restock.repositories)
      const token = encodeURIComponent(tokenFor(subscription))
      const pages = [
        await call('GET', `?token=${token}`),
        await call('POST', `?token=${token}`, { body: '', headers: FORM }),
        await call('GET', `?token=${encodeURIComponent(tokenFor(subscription, 'not-the-secret'))}`),
      ]
      expect(pages.map((page) => page.status)).toEqual([200, 200, 403])
      for (const { text } of pages) {
        expect(text).toContain('株式会社テスト商店')
        expect(text).toContain(
          'お問い合わせ: <a href="https://shop.example.test/contact">https://shop.example.test/contact</a>',
        )
        expect(text).toContain('<a href="https://store.example.test/">ショップのトップページへ</a>')
      }
    } finally {
      for (const name of ['SHOP_NAME', 'SHOP_CONTACT', 'STOREFRONT_URL']) delete process.env[name]
    }
  })
})
