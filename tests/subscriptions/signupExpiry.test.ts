import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import auditEndpoint from '../../netlify/functions/admin-audit-list.js'
import { notifyKeep } from '../../netlify/functions/notify-keep.js'
import { signupExpiry } from '../../netlify/functions/signup-expiry.js'
import { subscriptionCsvColumns } from '../../src/lib/admin/recordCsv.js'
import { applySubscriptionStatus } from '../../src/lib/admin/statusRules.js'
import { keptAnswer, signupExpiryAnswer } from '../../src/build/api/responseSchemas.js'
import { createKeepToken } from '../../src/lib/compliance/keepToken.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { readJson } from '../helpers/requests.js'
import { seedSubscription } from '../restock/restockTestKit.js'
import { useStockEnvironment } from '../stock/stockTestKit.js'

/**
 * Sign-ups that do not go stale, on a real local Blobs server and a Resend stand-in, on the
 * test's clock: the daily run asks a sign-up that has waited SIGNUP_EXPIRY_DAYS once, the keep
 * link keeps it (once), an unanswered question ends it after 14 days as `expired`, and nothing
 * is asked twice, in the quiet hours, or of anybody the restock e-mail would not reach.
 */

const DAY = 24 * 60 * 60 * 1000
const T0 = Date.UTC(2026, 0, 5, 1, 0, 0) // 10:00 JST
const ASK_AT = T0 + 180 * DAY
const world = useStockEnvironment()
let resend: RecordingServer

beforeAll(async () => {
  resend = await startRecordingServer()
})
afterAll(() => resend.close())
beforeEach(() => {
  resend.requests.length = 0
  resend.reply = (request) =>
    request.path.startsWith('/emails')
      ? { status: 200, body: { id: crypto.randomUUID() } }
      : { status: 200, body: {} }
  process.env.RESEND_API_KEY = 're_test_key'
  process.env.RESEND_FROM_EMAIL = 'shop@example.test'
  process.env.RESEND_BASE_URL = resend.url
  delete process.env.SIGNUP_EXPIRY_DAYS
  delete process.env.QUIET_HOURS
})

/** Runs the daily job at `now`. */
async function run(now: number) {
  const context = world.context()
  const response = await signupExpiry({ now: () => now })(
    new Request('http://localhost:8888/.netlify/functions/signup-expiry', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ next_run: new Date(now + DAY).toISOString() }),
    }),
    context,
  )
  await context.settled()
  const answer = await readJson(response)
  expect(answer.status).toBe(200)
  return signupExpiryAnswer.parse(answer.body)
}

/** The keep e-mails the stand-in received, to whom and with which link. */
function keepEmails(): { to: string; subject: string; text: string; link: string }[] {
  return resend.requests
    .filter((request) => request.path === '/emails')
    .map((request) => {
      const email = request.json as { to: string | string[]; subject: string; text: string }
      const link = /引き続き希望する: (\S+)/.exec(email.text)?.[1] ?? ''
      return { to: [email.to].flat()[0], subject: email.subject, text: email.text, link }
    })
}

/** Opens (GET) or uses (POST) a keep link at `now`; JSON answers unless `html`. */
async function keep(link: string, now: number, method: 'GET' | 'POST' = 'POST', html = false) {
  const url = new URL(link)
  const context = world.context()
  const response = await notifyKeep({ now: () => now })(
    new Request(`http://localhost:8888${url.pathname}${url.search}`, {
      method,
      headers: {
        Accept: html ? 'text/html' : 'application/json',
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: '' } : {}),
    }),
    context,
  )
  await context.settled()
  return response
}

const stored = async (subscription: NotifySubscription) =>
  (await world.repositories().subscriptions.get(subscription)) as NotifySubscription

const seed = (overrides: Partial<NotifySubscription> = {}) =>
  seedSubscription(world.repositories(), {
    createdAt: new Date(T0).toISOString(),
    ...overrides,
  })

describe('signup-expiry: the question after SIGNUP_EXPIRY_DAYS (default 180)', () => {
  it('asks a sign-up of 180 days once, by e-mail with a keep link; one of 179 days waits', async () => {
    const old = await seed({ email: 'old@example.test' })
    const young = await seed({
      email: 'young@example.test',
      createdAt: new Date(T0 + DAY).toISOString(),
    })

    expect(await run(ASK_AT - 1)).toEqual({ success: true, asked: 0, expired: 0, deferred: 0 })
    expect(await run(ASK_AT)).toEqual({ success: true, asked: 1, expired: 0, deferred: 0 })
    const [email] = keepEmails()
    expect(keepEmails()).toHaveLength(1)
    expect(email).toMatchObject({
      to: 'old@example.test',
      subject: '引き続き入荷のお知らせを希望されますか',
    })
    expect(email.link).toMatch(/\/api\/notify-keep\?token=/)
    expect(email.text).toContain('配信停止: ')
    const request = resend.requests.find((r) => r.path === '/emails')
    expect(request?.headers['idempotency-key']).toBe(
      `keep/${old.id}/${new Date(ASK_AT).toISOString()}`,
    )
    expect(await stored(old)).toMatchObject({
      status: 'pending',
      keepAskedAt: new Date(ASK_AT).toISOString(),
    })
    expect((await stored(young)).keepAskedAt).toBeUndefined()

    // the same day again, and the next: nobody is asked twice
    expect(await run(ASK_AT + 60_000)).toMatchObject({ asked: 0, expired: 0 })
    expect(await run(ASK_AT + DAY)).toMatchObject({ asked: 1, expired: 0 })
    expect(keepEmails().map((e) => e.to)).toEqual(['old@example.test', 'young@example.test'])
  })

  it('names the variant a sign-up waits for in the question', async () => {
    await seed({ email: 'ai@example.test', productSlug: 'mino-mug', variant: 'ai' })
    expect(await run(ASK_AT)).toMatchObject({ asked: 1 })
    expect(keepEmails()[0].text).toContain('美濃焼 マグカップ（藍）')
  })

  it('asks nobody the restock e-mail would not reach: unconfirmed, opted out, suppressed, notified, archived', async () => {
    const at = new Date(T0).toISOString()
    await seed({ confirmedAt: null })
    await seed({ unsubscribedAt: at })
    await seed({ status: 'notified', notifiedAt: at })
    await seed({ isArchived: true, archivedAt: at })
    const suppressed = await seed({ email: 'bounced@example.test' })
    await world.repositories().suppressions.suppress(suppressed.email, 'bounce', at)
    expect(await run(ASK_AT + 30 * DAY)).toMatchObject({ asked: 0, expired: 0, deferred: 0 })
    expect(keepEmails()).toEqual([])
  })

  it('SIGNUP_EXPIRY_DAYS=0 asks and ends nobody; SIGNUP_EXPIRY_DAYS=30 asks after 30 days', async () => {
    const subscription = await seed()
    process.env.SIGNUP_EXPIRY_DAYS = '0'
    expect(await run(T0 + 1000 * DAY)).toMatchObject({ asked: 0, expired: 0 })
    process.env.SIGNUP_EXPIRY_DAYS = '30'
    expect(await run(T0 + 30 * DAY)).toMatchObject({ asked: 1 })
    expect((await stored(subscription)).keepAskedAt).toBe(new Date(T0 + 30 * DAY).toISOString())
  })

  it('inside the quiet hours asks nobody; the first run after them asks', async () => {
    const subscription = await seed()
    const night = Date.UTC(2026, 6, 4, 14, 0, 0) // 23:00 JST
    expect(await run(night)).toEqual({ success: true, asked: 0, expired: 0, deferred: 1 })
    expect(keepEmails()).toEqual([])
    expect((await stored(subscription)).keepAskedAt).toBeUndefined()
    const morning = Date.UTC(2026, 6, 4, 23, 0, 0) // 08:00 JST
    expect(await run(morning)).toMatchObject({ asked: 1, deferred: 0 })
  })

  it('a question the provider refuses is taken back and asked by the next run', async () => {
    const subscription = await seed()
    resend.reply = () => ({ status: 500, body: { name: 'internal_server_error', message: 'down' } })
    expect(await run(ASK_AT)).toMatchObject({ asked: 0, deferred: 1 })
    expect((await stored(subscription)).keepAskedAt).toBeUndefined()
    resend.reply = () => ({ status: 200, body: { id: crypto.randomUUID() } })
    expect(await run(ASK_AT + DAY)).toMatchObject({ asked: 1, deferred: 0 })
    // why: 14 days are counted from the question that reached the shopper
    expect(await run(ASK_AT + 14 * DAY + DAY - 1)).toMatchObject({ expired: 0 })
  })
})

describe('the keep link and the end of an unanswered question', () => {
  it('GET shows the question and changes nothing; POST keeps it once; it is asked again 180 days later', async () => {
    const subscription = await seed()
    await run(ASK_AT)
    const [{ link }] = keepEmails()

    const page = await keep(link, ASK_AT + DAY, 'GET', true)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('引き続き入荷のお知らせを希望されますか')
    expect(html).toContain('<button type="submit">引き続き希望する</button>')
    expect((await stored(subscription)).keptAt).toBeUndefined()

    const kept = await readJson(await keep(link, ASK_AT + DAY))
    expect(kept).toMatchObject({ status: 200, body: { success: true, alreadyKept: false } })
    keptAnswer.parse(kept.body)
    expect(await stored(subscription)).toMatchObject({
      status: 'pending',
      keptAt: new Date(ASK_AT + DAY).toISOString(),
    })
    // replayed: changes nothing and says so
    const again = await readJson(await keep(link, ASK_AT + 2 * DAY))
    expect(again.body).toEqual({ success: true, alreadyKept: true })
    expect((await stored(subscription)).keptAt).toBe(new Date(ASK_AT + DAY).toISOString())

    // kept: it waits on past the 14 days, and is asked again 180 days after the keep
    expect(await run(ASK_AT + 15 * DAY)).toMatchObject({ asked: 0, expired: 0 })
    expect((await stored(subscription)).status).toBe('pending')
    expect(await run(ASK_AT + DAY + 180 * DAY)).toMatchObject({ asked: 1 })
    expect(keepEmails()).toHaveLength(2)
    // the first question's link is past its 14 days: it no longer acts
    const stale = await keep(link, ASK_AT + DAY + 180 * DAY + 1)
    expect(stale.status).toBe(410)
  })

  it('unanswered for 14 days: unsubscribed with unsubscribeReason "expired", audited, never asked again', async () => {
    const subscription = await seed()
    await run(ASK_AT)
    const [{ link }] = keepEmails()
    expect(await run(ASK_AT + 14 * DAY - 1)).toMatchObject({ expired: 0 })
    expect(await run(ASK_AT + 14 * DAY)).toEqual({
      success: true,
      asked: 0,
      expired: 1,
      deferred: 0,
    })
    expect(await stored(subscription)).toMatchObject({
      status: 'unsubscribed',
      unsubscribeReason: 'expired',
      unsubscribedAt: new Date(ASK_AT + 14 * DAY).toISOString(),
    })
    // staff read it as 配信停止 with 期限切れ (the CSV writes both)
    const status = subscriptionCsvColumns(false).find((column) => column.header === 'ステータス')
    expect(status?.value(await stored(subscription))).toBe('配信停止（期限切れ）')
    const audit = await world.call(auditEndpoint, '/api/admin/audit/list', {
      recordId: subscription.id,
    })
    expect(audit.body.entries).toMatchObject([
      { actor: 'signup-expiry', action: 'status', from: 'pending', to: 'unsubscribed' },
    ])
    expect(JSON.stringify(world.logs)).not.toContain(subscription.email)
    expect(await run(ASK_AT + 400 * DAY)).toMatchObject({ asked: 0, expired: 0 })
    expect(keepEmails()).toHaveLength(1)
    // the link of an ended sign-up: 410, as the Japanese page too
    const late = await keep(link, ASK_AT + 14 * DAY + 1)
    expect(late.status).toBe(410)
    const page = await keep(link, ASK_AT + 14 * DAY + 1, 'GET', true)
    expect(page.status).toBe(410)
    expect(await page.text()).toContain('このご登録は終了しています')
  })

  it('a sign-up made again after the question answers it: it does not end', async () => {
    const subscription = await seed()
    await run(ASK_AT)
    await world.repositories().subscriptions.update(subscription, (current) => ({
      ...current,
      consentedAt: new Date(ASK_AT + 3 * DAY).toISOString(),
    }))
    expect(await run(ASK_AT + 20 * DAY)).toMatchObject({ asked: 0, expired: 0 })
    expect((await stored(subscription)).status).toBe('pending')
  })

  it('a status staff set drops the open question and the reason: the wait starts over', async () => {
    const subscription = await seed()
    await run(ASK_AT)
    const asked = await stored(subscription)
    const staffSets = (status: string) => ({ id: asked.id, productSlug: asked.productSlug, status })
    const ended = applySubscriptionStatus(
      asked,
      staffSets('unsubscribed'),
      new Date(ASK_AT + DAY).toISOString(),
    )
    expect(ended.keepAskedAt).toBeUndefined()
    const expired = {
      ...asked,
      status: 'unsubscribed' as const,
      unsubscribeReason: 'expired' as const,
    }
    const back = applySubscriptionStatus(
      expired,
      staffSets('pending'),
      new Date(ASK_AT + DAY).toISOString(),
    )
    expect(back).not.toHaveProperty('unsubscribeReason')
    expect(back).not.toHaveProperty('keepAskedAt')
  })

  it('a forged or altered link answers 403, a garbled one 400, one past its 14 days 410', async () => {
    const subscription = await seed()
    await run(ASK_AT)
    const [{ link }] = keepEmails()
    const token = new URL(link).searchParams.get('token') as string
    const forged = createKeepToken(subscription, new Date(ASK_AT).toISOString(), 'another-secret')
    const altered = token.slice(0, -2) + (token.endsWith('A') ? 'BB' : 'AA')
    const at = ASK_AT + DAY
    expect((await keep(`http://x/api/notify-keep?token=${forged}`, at)).status).toBe(403)
    expect((await keep(`http://x/api/notify-keep?token=${altered}`, at)).status).toBe(403)
    expect((await keep('http://x/api/notify-keep?token=abc', at)).status).toBe(400)
    expect((await keep('http://x/api/notify-keep', at)).status).toBe(400)
    expect((await keep(link, ASK_AT + 14 * DAY)).status).toBe(410)
    expect((await stored(subscription)).keptAt).toBeUndefined()
  })
})
