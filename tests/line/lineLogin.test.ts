import { describe, expect, it } from 'vitest'
import { CONSENT_WORDING } from '../../src/lib/compliance/consentWording.js'
import { lineUserHash } from '../../src/lib/storage/lineContacts.js'
import { LOGIN_CHANNEL_ID, PRODUCT, VARIANT_PRODUCT, useLineEnvironment } from './lineTestKit.js'

/**
 * GET /api/line/login and GET /api/line/callback on a real local Blobs server against the LINE
 * stand-in (platform/lineStandIn.ts): the redirect (PKCE S256, state, nonce, bot_prompt), the
 * stored sign-up, consent and contact, the friend and not-friend pages, and every refusal: a
 * replayed, forged or expired state, a wrong nonce, a code from another login.
 */

const world = useLineEnvironment()
const MINUTE = 60_000

async function subscriptionsOf(productSlug: string) {
  return (await world.repositories().subscriptions.listProduct(productSlug)).records
}

describe('GET /api/line/login', () => {
  it('sends the shopper to LINE with PKCE S256, a signed state, a nonce and bot_prompt', async () => {
    const response = await world.startLogin({ productSlug: PRODUCT })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get('location')!)
    expect(location.origin + location.pathname).toBe(`${world.standIn.url}/oauth2/v2.1/authorize`)
    const query = Object.fromEntries(location.searchParams)
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: LOGIN_CHANNEL_ID,
      redirect_uri: 'http://shop.test/api/line/callback',
      scope: 'profile openid',
      code_challenge_method: 'S256',
      bot_prompt: 'aggressive',
    })
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(query.nonce).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(query.state).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
    // two logins never share a state, a nonce or a challenge
    const again = new URL(
      (await world.startLogin({ productSlug: PRODUCT })).headers.get('location')!,
    )
    for (const name of ['state', 'nonce', 'code_challenge']) {
      expect(again.searchParams.get(name)).not.toBe(query[name])
    }
  })

  it('answers a Japanese page for an unknown product, a missing variant, and without LINE', async () => {
    const unknown = await world.startLogin({ productSlug: 'no-such-product' })
    expect(unknown.status).toBe(400)
    expect(await unknown.text()).toContain('リンクが正しくありません')
    const noVariant = await world.startLogin({ productSlug: VARIANT_PRODUCT })
    expect(noVariant.status).toBe(400)
    expect(await world.startLogin({})).toHaveProperty('status', 400)
    delete process.env.LINE_MESSAGING_CHANNEL_SECRET
    const off = await world.startLogin({ productSlug: PRODUCT })
    expect(off.status).toBe(503)
    expect(await off.text()).toContain('ただいまLINEでの登録を受け付けられません')
  })
})

describe('GET /api/line/callback', () => {
  it('stores a LINE sign-up, its consent and the friend status, and says the shop can message', async () => {
    const userId = world.standIn.nextLogin.userId
    const page = await world.signUp({ productSlug: PRODUCT })
    expect(page.status).toBe(200)
    expect(page.text).toContain('LINEでの登録が完了しました')
    const [subscription] = await subscriptionsOf(PRODUCT)
    expect(subscription).toMatchObject({
      channel: 'line',
      lineUserId: userId,
      email: '',
      status: 'pending',
      productSlug: PRODUCT,
    })
    const repositories = world.repositories()
    const consents = (await repositories.consents.listForAddress(lineUserHash(userId))).records
    expect(consents).toHaveLength(1)
    expect(consents[0]).toMatchObject({ kind: 'restock-line', recordId: subscription.id })
    const wording = await repositories.consents.wording(consents[0].wordingVersion)
    expect(wording?.text).toBe(CONSENT_WORDING['restock-line'])
    expect(await repositories.lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: true,
      subscriptions: [{ id: subscription.id, productSlug: PRODUCT }],
    })
    // a LINE user id is personal data: no log line carries it
    expect(JSON.stringify(world.logs)).not.toContain(userId)
  })

  it('tells a shopper who did not add the official account what to do, and keeps the variant', async () => {
    world.standIn.nextLogin.addsFriend = false
    const userId = world.standIn.nextLogin.userId
    const page = await world.signUp({ productSlug: VARIANT_PRODUCT, variant: 'ai' })
    expect(page.status).toBe(200)
    expect(page.text).toContain('あと一歩で登録が完了します')
    expect(page.text).toContain('友だち')
    expect(page.text).toContain(
      'href="http://shop.test/api/line/login?productSlug=mino-mug&amp;variant=ai"',
    )
    const [subscription] = await subscriptionsOf(VARIANT_PRODUCT)
    expect(subscription).toMatchObject({ channel: 'line', variant: 'ai', lineUserId: userId })
    expect(await world.repositories().lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: false,
    })
  })

  it('keeps one sign-up per LINE user and product', async () => {
    await world.signUp({ productSlug: PRODUCT })
    const again = await world.signUp({ productSlug: PRODUCT })
    expect(again.text).toContain('すでにLINEで受け取る登録がされています')
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(1)
  })

  it('refuses a replayed state with 409 (and a replayed code, which LINE refuses, with 403)', async () => {
    const start = await world.startLogin({ productSlug: PRODUCT })
    const back = await world.atLine(start.headers.get('location')!)
    expect((await world.callback(back)).status).toBe(200)
    expect((await world.callback(back)).status).toBe(403)
    // the same state again, with a fresh code LINE issued for it
    const again = await world.atLine(start.headers.get('location')!)
    expect(again.searchParams.get('state')).toBe(back.searchParams.get('state'))
    const replay = await world.callback(again)
    expect(replay.status).toBe(409)
    expect(replay.text).toContain('この画面はすでに使われています')
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(1)
  })

  it('refuses an ID token with a wrong nonce with 403 and stores nothing', async () => {
    world.standIn.idTokenNonce = 'a-nonce-this-login-never-sent'
    const page = await world.signUp({ productSlug: PRODUCT })
    expect(page.status).toBe(403)
    expect(page.text).toContain('LINEでのログインを確認できませんでした')
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(0)
    expect(world.logs.some((line) => line.reason === 'wrong-nonce')).toBe(true)
  })

  it('refuses a code issued to another login (PKCE): its verifier does not match', async () => {
    const first = await world.atLine(
      (await world.startLogin({ productSlug: PRODUCT })).headers.get('location')!,
    )
    const second = await world.atLine(
      (await world.startLogin({ productSlug: PRODUCT })).headers.get('location')!,
    )
    const crossed = new URL(second)
    crossed.searchParams.set('code', first.searchParams.get('code')!)
    expect((await world.callback(crossed)).status).toBe(403)
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(0)
  })

  it('refuses a forged state (403), an expired one (410) and a missing one (400)', async () => {
    const start = await world.startLogin({ productSlug: PRODUCT }, Date.now() - 11 * MINUTE)
    const back = await world.atLine(start.headers.get('location')!)
    const expired = await world.callback(back)
    expect(expired.status).toBe(410)
    expect(expired.text).toContain('時間切れになりました')

    const forged = new URL(back)
    const [payload] = forged.searchParams.get('state')!.split('.')
    forged.searchParams.set('state', `${payload}.${'A'.repeat(43)}`)
    expect((await world.callback(forged)).status).toBe(403)

    const missing = new URL(back)
    missing.searchParams.delete('state')
    expect((await world.callback(missing)).status).toBe(400)
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(0)
  })

  it('answers a page and stores nothing when the shopper stopped at LINE', async () => {
    const start = await world.startLogin({ productSlug: PRODUCT })
    const back = await world.atLine(start.headers.get('location')!)
    back.searchParams.delete('code')
    back.searchParams.set('error', 'access_denied')
    const page = await world.callback(back)
    expect(page.status).toBe(200)
    expect(page.text).toContain('LINEでの登録を中止しました')
    expect(await subscriptionsOf(PRODUCT)).toHaveLength(0)
  })
})
