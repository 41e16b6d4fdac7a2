import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import confirmModule from '../../netlify/functions/notify-confirm.js'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import exportModule from '../../netlify/functions/admin-people-export.js'
import sendModule from '../../netlify/functions/admin-notify-send.js'
import signupModule from '../../netlify/functions/notify-signup.js'
import statusModule from '../../netlify/functions/admin-notify-status.js'
import reservationModule from '../../netlify/functions/reservation.js'
import webhookModule from '../../netlify/functions/resend-webhook.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { openServices } from '../../src/lib/services.js'
import { notifySignup } from '../../src/lib/subscriptions/notifySignup.js'
import { CONSENT_WORDING } from '../../src/lib/compliance/consentWording.js'
import { fakeContext } from '../helpers/context.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { bounceEvent, signedWebhook, WEBHOOK_SECRET, WEBHOOK_URL } from './complianceTestKit.js'
import {
  FROM,
  freshProduct,
  PRODUCT,
  resendReply,
  startSite,
  useSendSettings,
} from '../restock/restockTestKit.js'

const restock = useSendSettings()
const SHOP = {
  SHOP_NAME: '株式会社テスト商店',
  SHOP_ADDRESS: '〒100-0001 東京都千代田区千代田1-1',
  SHOP_CONTACT: 'support@shop.example.test',
}

let resend: RecordingServer
let site: Awaited<ReturnType<typeof startSite>>

beforeAll(async () => {
  resend = await startRecordingServer()
  site = await startSite(deliverModule)
})
afterAll(async () => {
  await site.close()
  await resend.close()
})
beforeEach(() => {
  Object.assign(process.env, SHOP, {
    RESEND_API_KEY: 're_test_key',
    RESEND_FROM_EMAIL: FROM,
    RESEND_BASE_URL: resend.url,
    RESEND_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SITE_URL: 'https://shop.example.test',
  })
  delete process.env.NOTIFY_DOUBLE_OPT_IN
  resend.requests.length = 0
  resend.reply = resendReply()
})

const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.test`

async function call(
  handler: (req: Request, context: any) => Promise<Response>,
  path: string,
  body: unknown,
  options: { token?: string; ip?: string; deployContext?: string; base?: string } = {},
) {
  const context = fakeContext({ deployContext: options.deployContext })
  if (options.ip) Object.assign(context, { ip: options.ip })
  const response = await handler(
    jsonRequest(`${options.base ?? ''}${path}`, body, { token: options.token }),
    context,
  )
  await context.settled()
  return readJson(response)
}

const signUp = (email: string, productSlug: string, extra: Record<string, unknown> = {}) =>
  call(signupModule, '/api/notify-signup', { email, productSlug, ...extra }, { ip: '203.0.113.77' })

async function send(productSlug: string, deployContext?: string) {
  const answer = await call(
    sendModule,
    '/api/admin/notify/send',
    { productSlug, emailTitle: '再入荷のお知らせ', emailBody: '入荷しました。' },
    { token: ADMIN_TOKEN, base: site.url, deployContext },
  )
  await site.idle()
  return answer
}

function restockEmails(): {
  to: string
  text: string
  html: string
  headers: Record<string, string>
}[] {
  return resend.requests.filter((r) => r.path === '/emails/batch').flatMap((r) => r.json)
}

describe('consent records', () => {
  it('stores one for a sign-up and for a reservation, with the wording once per version, and exports them', async () => {
    const email = unique('consent')
    const signedUp = await signUp(email, PRODUCT, { source: 'widget' })
    expect(signedUp.status).toBe(200)
    const reserved = await call(
      reservationModule,
      '/api/reservation',
      { name: '同意 太郎', email, productSlug: 'chasen-takayama' },
      { ip: '2001:db8:abcd:12::1' },
    )
    expect(reserved.status).toBe(200)
    const exported = await call(
      exportModule,
      '/api/admin/people/export',
      { email },
      { token: ADMIN_TOKEN },
    )
    const consents = exported.body.consents
    expect(consents).toHaveLength(2)
    expect(consents[0]).toMatchObject({
      kind: 'restock-notice',
      recordId: signedUp.body.subscriptionId,
      productSlug: PRODUCT,
      source: 'widget',
      clientNetwork: '203.0.113.0/24',
      wordingText: CONSENT_WORDING['restock-notice'],
    })
    expect(consents[1]).toMatchObject({
      kind: 'reservation',
      recordId: reserved.body.reservationId,
      productSlug: 'chasen-takayama',
      source: 'api',
      clientNetwork: '2001:db8:abcd::/48',
      wordingText: CONSENT_WORDING.reservation,
    })
    expect(JSON.stringify(consents)).not.toContain(email)

    await signUp(unique('second'), PRODUCT)
    const { store } = restock.repositories
    const { blobs } = await store.list({ prefix: 'consent-wordings/' })
    expect(blobs.map((blob) => blob.key).sort()).toEqual(
      [
        `consent-wordings/${consents[0].wordingVersion}`,
        `consent-wordings/${consents[1].wordingVersion}`,
      ].sort(),
    )
  })
})

describe('the sender block of every restock e-mail (Art. 4)', () => {
  it('is in the e-mail the provider receives, beside the opt-out sentence, link and headers', async () => {
    const productSlug = freshProduct('footer')
    await signUp(unique('footer'), PRODUCT)
    const email = unique('footer')
    await signUp(email, productSlug === PRODUCT ? PRODUCT : PRODUCT)
    const answer = await send(PRODUCT)
    expect(answer.status).toBe(200)
    const received = restockEmails().find((e) => e.to === email)!
    expect(received.text).toContain('以下のリンクから配信を停止できます')
    expect(received.text).toContain(`送信者: ${SHOP.SHOP_NAME}`)
    expect(received.text).toContain(`所在地: ${SHOP.SHOP_ADDRESS}`)
    expect(received.text).toContain(`お問い合わせ・苦情の窓口: ${SHOP.SHOP_CONTACT}`)
    expect(received.html).toContain(SHOP.SHOP_ADDRESS)
    expect(received.headers['List-Unsubscribe']).toMatch(
      /^<https:\/\/shop\.example\.test\/api\/notify-unsubscribe\?token=/,
    )
    expect(received.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  })

  it('is refused in production with a 400 naming the missing variables; locally the e-mail says what is missing', async () => {
    delete process.env.SHOP_ADDRESS
    delete process.env.SHOP_CONTACT
    const email = unique('missing')
    await signUp(email, PRODUCT)
    const refused = await send(PRODUCT, 'production')
    expect(refused.status).toBe(400)
    expect(refused.body.error).toMatch(
      /^Sender details are not configured: SHOP_ADDRESS, SHOP_CONTACT are not set/,
    )
    expect(restockEmails()).toEqual([])
    const { records } = await restock.repositories.subscriptions.listProduct(PRODUCT)
    expect(records.find((s) => s.email === email)?.status).toBe('pending')

    expect((await send(PRODUCT)).status).toBe(200)
    const received = restockEmails().find((e) => e.to === email)!
    expect(received.text).toContain('送信者情報が未設定です（SHOP_ADDRESS, SHOP_CONTACT）')
  })
})

describe('opt-out honoured everywhere', () => {
  it('unsubscribed, set back to pending by staff: the send skips it until the person signs up again', async () => {
    const productSlug = 'mino-yaki-mug'
    const email = unique('optout')
    const other = unique('optout-other')
    const { body } = await signUp(email, productSlug)
    await signUp(other, productSlug)
    const ref = { id: body.subscriptionId, productSlug }
    for (const status of ['unsubscribed', 'pending']) {
      const answer = await call(
        statusModule,
        '/api/admin-notify-status',
        { ...ref, status },
        { token: ADMIN_TOKEN },
      )
      expect(answer.body.subscription).toMatchObject({ status, unsubscribedAt: expect.any(String) })
    }
    const first = await send(productSlug)
    expect(first.body.recipientEmails).toEqual([other])
    expect(restockEmails().map((e) => e.to)).toEqual([other])
    expect((await restock.repositories.subscriptions.get(ref))?.status).toBe('pending')

    resend.requests.length = 0
    const again = await signUp(email, productSlug)
    expect(again.body.subscriptionId).toBe(ref.id)
    const renewed = await restock.repositories.subscriptions.get(ref)
    expect(Date.parse(renewed!.consentedAt!)).toBeGreaterThan(Date.parse(renewed!.unsubscribedAt!))
    const second = await send(productSlug)
    expect(second.body.recipientEmails).toEqual([email])
  })

  it('a hard bounce suppresses the address: no restock and no confirmation e-mail goes to it again', async () => {
    const productSlug = 'kyusu-tokoname'
    const email = unique('bounce')
    await signUp(email, productSlug)
    const hook = await webhookModule(signedWebhook(WEBHOOK_URL, bounceEvent(email)), fakeContext())
    expect(hook.status).toBe(200)
    resend.requests.length = 0
    const again = await signUp(email, productSlug)
    expect(again.status).toBe(200)
    const sent = await send(productSlug)
    expect(sent.status).toBe(400)
    expect(sent.body.error).toBe('No pending subscribers found for this product')
    expect(resend.requests.filter((r) => JSON.stringify(r.json ?? '').includes(email))).toEqual([])
  })
})

describe('double opt-in (NOTIFY_DOUBLE_OPT_IN=true)', () => {
  it('e-mails a confirmation link; unconfirmed is not sent to, confirmed is', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    const productSlug = 'hasami-rim-plate'
    const email = unique('doi')
    const { body } = await signUp(email, productSlug)
    const confirmation = resend.requests.find((r) => r.path === '/emails' && r.json?.to === email)
    expect(confirmation?.json.subject).toContain('登録を確定してください')
    const link = /https:\/\/shop\.example\.test\/api\/notify-confirm\?token=\S+/.exec(
      confirmation!.json.text,
    )![0]
    expect(confirmation!.json.text).toContain(`送信者: ${SHOP.SHOP_NAME}`)
    expect(
      (await restock.repositories.subscriptions.get({ id: body.subscriptionId, productSlug }))
        ?.confirmedAt,
    ).toBeNull()

    const unsent = await send(productSlug)
    expect(unsent.body.error).toBe('No pending subscribers found for this product')

    const token = new URL(link).searchParams.get('token')!
    const confirmed = await confirmModule(
      new Request(`http://localhost:8888/api/notify-confirm?token=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { Accept: 'application/json' },
      }),
      fakeContext(),
    )
    expect(await confirmed.json()).toEqual({ success: true, alreadyConfirmed: false })
    const sent = await send(productSlug)
    expect(sent.body.recipientEmails).toEqual([email])
  })

  it('re-sends the link at most once a minute per address (controlled clock)', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    const email = unique('clock')
    const links = () => resend.requests.filter((r) => r.path === '/emails' && r.json?.to === email)
    let now = Date.UTC(2026, 10, 22, 3, 0, 0)
    const signUpAt = async (ms: number) => {
      now = ms
      const context = fakeContext()
      await notifySignup(
        { email, productSlug: 'mino-yaki-mug' },
        openServices(context, loadConfig(), createLogger('test'), { now: () => now }),
      )
      await context.settled()
    }
    const start = now
    await signUpAt(start)
    await signUpAt(start + 59_999)
    expect(links()).toHaveLength(1)
    await signUpAt(start + 60_000)
    expect(links()).toHaveLength(2)
    await signUpAt(start + 60_001)
    expect(links()).toHaveLength(2)
  })

  it('re-sends the link at most once a minute per address', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    const email = unique('resend')
    const links = () => resend.requests.filter((r) => r.path === '/emails' && r.json?.to === email)
    await signUp(email, 'chasen-takayama')
    expect(links()).toHaveLength(1)
    await signUp(email, 'chasen-takayama')
    await signUp(email, 'kyusu-tokoname')
    expect(links()).toHaveLength(1)
  })

  /** The page a link opens, then its form posted as a browser would (the ticked boxes). */
  async function openAndConfirm(link: string, untick: string[] = []): Promise<string> {
    const url = new URL(link)
    const local = `http://localhost:8888${url.pathname}${url.search}`
    const page = await (await confirmModule(new Request(local), fakeContext())).text()
    const fields = new URLSearchParams()
    for (const [, name, value] of page.matchAll(
      /<input type="(?:hidden|checkbox)" name="([^"]+)" value="([^"]*)"/g,
    )) {
      if (!untick.some((slug) => value.startsWith(`${slug}/`))) fields.append(name, value)
    }
    const done = await confirmModule(
      new Request(local, { method: 'POST', body: fields.toString(), headers: FORM_TYPE }),
      fakeContext(),
    )
    expect(done.status).toBe(200)
    return page
  }
  const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' }
  const confirmationLinks = (email: string) =>
    resend.requests
      .filter((r) => r.path === '/emails' && r.json?.to === email)
      .map(
        (r) =>
          /https:\/\/shop\.example\.test\/api\/notify-confirm\?token=\S+/.exec(r.json.text)![0],
      )

  const EIGHT = [
    'chasen-takayama',
    'ethiopia-yirgacheffe-beans',
    'guatemala-antigua-beans',
    'hario-v60-dripper',
    'hasami-rim-plate',
    'kalita-wave-server',
    'kiyomizu-matcha-chawan',
    'kyusu-tokoname',
  ]

  it('one shopper signs up for 8 products in a row: every one of them can be confirmed', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    const email = unique('eight')
    const ids: string[] = []
    for (const productSlug of EIGHT) {
      const answer = await signUp(email, productSlug)
      expect(answer.body).toEqual({
        success: true,
        subscriptionId: expect.stringMatching(/^ntf_/),
        confirmationRequired: true,
      })
      ids.push(answer.body.subscriptionId)
    }
    const links = confirmationLinks(email)
    expect(links.length).toBeGreaterThanOrEqual(1)
    // why: the shopper opens what was e-mailed; each page lists what still waits
    for (const link of links) await openAndConfirm(link)
    const stored = await Promise.all(
      EIGHT.map((productSlug, n) =>
        restock.repositories.subscriptions.get({ id: ids[n], productSlug }),
      ),
    )
    expect(stored.map((subscription) => subscription?.confirmedAt ?? null)).toEqual(
      EIGHT.map(() => expect.stringMatching(/^\d{4}-/)),
    )
  })

  it('lists every product waiting in the e-mail; a box left unticked stays unconfirmed', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    const email = unique('untick')
    const first = await signUp(email, 'mino-yaki-mug')
    const second = await signUp(email, 'porlex-hand-grinder')
    const [link] = confirmationLinks(email)
    const page = await openAndConfirm(link, ['porlex-hand-grinder'])
    expect(page).toContain(`value="porlex-hand-grinder/${second.body.subscriptionId}" checked`)
    const get = (id: string, productSlug: string) =>
      restock.repositories.subscriptions.get({ id, productSlug })
    expect((await get(first.body.subscriptionId, 'mino-yaki-mug'))?.confirmedAt).toMatch(/^\d{4}-/)
    expect((await get(second.body.subscriptionId, 'porlex-hand-grinder'))?.confirmedAt).toBeNull()
    // why: the link was used, so the next sign-up of the address gets an e-mail of its own at once
    await signUp(email, 'shinkansen-tenugui')
    expect(confirmationLinks(email)).toHaveLength(2)
    const mail = resend.requests.filter((r) => r.path === '/emails' && r.json?.to === email)[1]
    expect(mail.json.subject).toBe('【再入荷通知】2件のご登録を確定してください')
  })

  it('answers without the field, with the place in the queue, when double opt-in is off', async () => {
    const answer = await signUp(unique('single'), 'hario-v60-dripper')
    expect(Object.keys(answer.body)).toEqual(['success', 'subscriptionId', 'queue'])
  })
})
