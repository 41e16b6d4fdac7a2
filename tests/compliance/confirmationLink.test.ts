import { describe, expect, it } from 'vitest'
import confirmModule from '../../netlify/functions/notify-confirm.js'
import {
  createConfirmationToken,
  verifyConfirmationToken,
} from '../../src/lib/compliance/confirmationToken.js'
import { createUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import { fakeContext } from '../helpers/context.js'
import { SECRET, seedSubscription, useRestockSettings } from '../restock/restockTestKit.js'

const restock = useRestockSettings()
const BASE = 'http://localhost:8888/api/notify-confirm'
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }
// why: a fixed expiry far ahead, so no test depends on the wall clock's day
const FAR = Date.UTC(2099, 0, 1)

async function call(method: string, token: string, headers: Record<string, string> = {}) {
  const body = method === 'POST' ? new URLSearchParams({ token }).toString() : undefined
  const query = method === 'GET' ? `?token=${encodeURIComponent(token)}` : ''
  const response = await confirmModule(
    new Request(`${BASE}${query}`, { method, body, headers: { ...FORM, ...headers } }),
    fakeContext(),
  )
  return { status: response.status, text: await response.text() }
}

describe('double opt-in confirmation tokens', () => {
  const ref = { id: 'ntf_1763778300000-4f9c2a7b1e', productSlug: 'hario-v60-dripper' }

  it('verifies a good token and refuses a changed one (constant-time compare of the HMAC)', () => {
    const token = createConfirmationToken(ref, FAR, SECRET)
    expect(verifyConfirmationToken(token, SECRET, FAR - 1)).toEqual({
      ok: true,
      ref,
      expiresAt: FAR,
    })
    expect(verifyConfirmationToken(token, 'another-secret', FAR - 1)).toEqual({
      ok: false,
      reason: 'bad-signature',
    })
    const [payload, signature] = token.split('.')
    const later = Buffer.from(JSON.stringify({ ...ref, exp: FAR + 1 })).toString('base64url')
    expect(verifyConfirmationToken(`${later}.${signature}`, SECRET, 0).ok).toBe(false)
    expect(verifyConfirmationToken(`${payload}.${signature.slice(1)}x`, SECRET, 0).ok).toBe(false)
    expect(verifyConfirmationToken('garbage', SECRET, 0)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })

  it('expires at its time (controlled clock)', () => {
    const token = createConfirmationToken(ref, 1_000_000, SECRET)
    expect(verifyConfirmationToken(token, SECRET, 999_999).ok).toBe(true)
    expect(verifyConfirmationToken(token, SECRET, 1_000_000)).toEqual({
      ok: false,
      reason: 'expired',
    })
  })

  it('is not an unsubscribe token, nor the other way round', () => {
    const unsubscribe = createUnsubscribeToken(ref, SECRET)
    expect(verifyConfirmationToken(unsubscribe, SECRET, 0).ok).toBe(false)
  })
})

describe('/api/notify-confirm', () => {
  it('GET shows a page and changes nothing; POST confirms once; a replay changes nothing', async () => {
    const subscription = await seedSubscription(restock.repositories, { confirmedAt: null })
    const token = createConfirmationToken(subscription, FAR, SECRET)
    const page = await call('GET', token)
    expect(page.status).toBe(200)
    expect(page.text).toContain('登録を確定する')
    expect((await restock.repositories.subscriptions.get(subscription))?.confirmedAt).toBeNull()

    const done = await call('POST', token)
    expect(done.status).toBe(200)
    expect(done.text).toContain('登録が確定しました')
    const confirmed = await restock.repositories.subscriptions.get(subscription)
    expect(confirmed?.confirmedAt).toMatch(/^\d{4}-/)

    const replay = await call('POST', token, { Accept: 'application/json' })
    expect(JSON.parse(replay.text)).toEqual({ success: true, alreadyConfirmed: true })
    expect((await restock.repositories.subscriptions.get(subscription))?.confirmedAt).toBe(
      confirmed?.confirmedAt,
    )
  })

  it('answers 403 to a forged link, 410 to an expired one, 400 to garbage, and changes nothing', async () => {
    const subscription = await seedSubscription(restock.repositories, { confirmedAt: null })
    const forged = await call('POST', createConfirmationToken(subscription, FAR, 'not-the-secret'))
    expect(forged.status).toBe(403)
    expect(forged.text).toContain('確認リンクが無効です')
    const expired = await call(
      'POST',
      createConfirmationToken(subscription, Date.UTC(2020, 0, 1), SECRET),
    )
    expect(expired.status).toBe(410)
    expect(expired.text).toContain('有効期限')
    expect((await call('POST', 'garbage')).status).toBe(400)
    expect((await restock.repositories.subscriptions.get(subscription))?.confirmedAt).toBeNull()
  })

  it('answers 404 when the sign-up is gone (expired and purged)', async () => {
    const token = createConfirmationToken(
      { id: 'ntf_1-gone', productSlug: 'hario-v60-dripper' },
      FAR,
      SECRET,
    )
    expect((await call('GET', token)).status).toBe(404)
  })
})

describe('the shop on the confirmation pages', () => {
  it('the confirmation, done and 403 pages name the shop, its contact and link to the storefront', async () => {
    Object.assign(process.env, {
      SHOP_NAME: '株式会社テスト商店',
      SHOP_CONTACT: '03-1234-5678',
      STOREFRONT_URL: 'https://store.example.test/',
    })
    try {
      const subscription = await seedSubscription(restock.repositories, { confirmedAt: null })
      const token = createConfirmationToken(subscription, FAR, SECRET)
      const pages = [
        await call('GET', token),
        await call('POST', token),
        await call('GET', createConfirmationToken(subscription, FAR, 'not-the-secret')),
      ]
      expect(pages.map((page) => page.status)).toEqual([200, 200, 403])
      for (const { text } of pages) {
        expect(text).toContain('株式会社テスト商店')
        expect(text).toContain('お問い合わせ: 03-1234-5678')
        expect(text).toContain('<a href="https://store.example.test/">ショップのトップページへ</a>')
      }
    } finally {
      for (const name of ['SHOP_NAME', 'SHOP_CONTACT', 'STOREFRONT_URL']) delete process.env[name]
    }
  })
})
