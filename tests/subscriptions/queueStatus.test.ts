import { describe, expect, it } from 'vitest'
import notifyConfirm from '../../netlify/functions/notify-confirm.js'
import notifySignup from '../../netlify/functions/notify-signup.js'
import { notifyStatus } from '../../netlify/functions/notify-status.js'
import notifyUnsubscribe from '../../netlify/functions/notify-unsubscribe.js'
import { subscriptionCreated } from '../../src/build/api/responseSchemas.js'
import { waitingRule } from '../../src/lib/compliance/restockRecipients.js'
import { chooseRecipients } from '../../src/lib/restock/recipientChoice.js'
import { PURPOSES } from '../../src/lib/signing/purposes.js'
import { signRecordToken } from '../../src/lib/signing/recordTokens.js'
import type { NotifySubscription } from '../../src/lib/storage/records.js'
import {
  createStatusToken,
  STATUS_LINK_LIFETIME_MS,
  statusUrl,
} from '../../src/lib/subscriptions/statusLink.js'
import { eventsOf } from '../helpers/logs.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { SECRET, seedSubscription } from '../restock/restockTestKit.js'
import { useStockEnvironment } from '../stock/stockTestKit.js'

/**
 * The 「入荷待ちの状況」 page (`GET /notify/status`) over real Requests and a real local Blobs
 * server, on the test's clock: the place in the queue counted as the restock waves choose (per
 * variant), moving up when someone earlier leaves, the states of a sign-up that no longer waits,
 * and the signed link refused when forged, altered, garbled or expired. The sign-up e-mail and
 * the confirmed page carry the link; the sign-up answer carries the place.
 */

const world = useStockEnvironment()
const PRODUCT = 'hario-v60-dripper'
const T0 = Date.UTC(2026, 0, 5, 1, 0, 0) // 10:00 JST
const NOW = T0 + 30 * 24 * 60 * 60_000

/** 40 sign-ups of `productSlug` (of `variant`), a minute apart, oldest first. */
async function seedQueue(count: number, overrides: Partial<NotifySubscription> = {}) {
  const seeded: NotifySubscription[] = []
  for (let i = 0; i < count; i++) {
    seeded.push(
      await seedSubscription(world.repositories(), {
        productSlug: PRODUCT,
        createdAt: new Date(T0 + i * 60_000).toISOString(),
        ...overrides,
      }),
    )
  }
  return seeded
}

/** Opens the status page with `token` at `now`. */
async function open(token: string, now = NOW) {
  const context = world.context()
  const response = await notifyStatus({ now: () => now })(
    new Request(new URL(statusUrl('http://localhost:8888', token)), {
      headers: { Accept: 'text/html' },
    }),
    context,
  )
  await context.settled()
  return { status: response.status, headers: response.headers, html: await response.text() }
}

const linkOf = (subscription: NotifySubscription, at = T0) =>
  createStatusToken(subscription, SECRET, at)

/** The page's place line 「N 番目（入荷待ち M 人）」, or null. */
const placeOn = (html: string) => /<dt>順番<\/dt><dd>([^<]+)<\/dd>/.exec(html)?.[1] ?? null

describe('the place in the queue', () => {
  it('the 1st and the 12th of 40, with the product, the sign-up time in JST and the unsubscribe button; nobody else is shown', async () => {
    const queue = await seedQueue(40)
    const first = await open(linkOf(queue[0]))
    expect(first.status).toBe(200)
    expect(first.headers.get('cache-control')).toBe('no-store')
    expect(placeOn(first.html)).toBe('1 番目（入荷待ち 40 人）')

    const twelfth = await open(linkOf(queue[11]))
    expect(placeOn(twelfth.html)).toBe('12 番目（入荷待ち 40 人）')
    expect(twelfth.html).toContain('<h1>入荷待ちの状況</h1>')
    expect(twelfth.html).toContain('HARIO V60 透過ドリッパー 02 セラミック ホワイト')
    // 10:11 JST: the 12th signed up 11 minutes after 10:00 JST
    expect(twelfth.html).toContain('2026年1月5日 10:11（日本時間）')
    expect(twelfth.html).toContain('<button type="submit">配信を停止する</button>')
    expect(twelfth.html).toContain('action="/api/notify-unsubscribe?token=')
    for (const other of queue.filter((_, i) => i !== 11)) {
      expect(twelfth.html).not.toContain(other.email)
      expect(twelfth.html).not.toContain(other.id)
    }
    expect(twelfth.html).not.toContain(queue[11].email)
  })

  it('is the place a wave of the same size reaches: the 12th is the last of a wave of 12', async () => {
    const queue = await seedQueue(20)
    // why: an earlier sign-up no wave would reach (unconfirmed) is in nobody's count
    await seedSubscription(world.repositories(), {
      productSlug: PRODUCT,
      createdAt: new Date(T0 - 60_000).toISOString(),
      confirmedAt: null,
    })
    const repositories = world.repositories()
    const choice = await chooseRecipients(
      { productSlug: PRODUCT, notificationId: 'notif_queue-check', limit: 12, now: NOW },
      {
        ...repositories,
        isFinished: () => true,
        mayReceive: await waitingRule(repositories.suppressions),
      },
    )
    expect(choice.state).toBe('chosen')
    if (choice.state !== 'chosen') return
    await choice.release()
    expect(choice.subscribers.at(-1)?.id).toBe(queue[11].id)
    expect(placeOn((await open(linkOf(queue[11]))).html)).toBe('12 番目（入荷待ち 20 人）')
  })

  it('counts per variant: the sign-ups of the other variants are in other queues', async () => {
    const ai = await seedQueue(3, { productSlug: 'mino-mug', variant: 'ai' })
    await seedQueue(5, { productSlug: 'mino-mug', variant: 'shiro' })
    const shiro = await seedSubscription(world.repositories(), {
      productSlug: 'mino-mug',
      variant: 'shiro',
      createdAt: new Date(T0 - 60_000).toISOString(),
    })
    const page = await open(linkOf(ai[2]))
    expect(placeOn(page.html)).toBe('3 番目（入荷待ち 3 人）')
    expect(page.html).toContain('美濃焼 マグカップ（藍）')
    expect(placeOn((await open(linkOf(shiro))).html)).toBe('1 番目（入荷待ち 6 人）')
  })

  it('moves up when someone earlier unsubscribes (with the button of their own status page)', async () => {
    const queue = await seedQueue(40)
    const earlier = await open(linkOf(queue[2]))
    const action = /action="([^"]+)"/.exec(earlier.html)?.[1].replaceAll('&amp;', '&')
    const token = /name="token" value="([^"]+)"/.exec(earlier.html)?.[1]
    expect(action).toBeDefined()
    const context = world.context()
    const done = await notifyUnsubscribe(
      new Request(`http://localhost:8888${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: token! }).toString(),
      }),
      context,
    )
    await context.settled()
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('配信停止の手続きが完了しました')

    expect(placeOn((await open(linkOf(queue[11]))).html)).toBe('11 番目（入荷待ち 39 人）')
    const left = await open(linkOf(queue[2]))
    expect(placeOn(left.html)).toBeNull()
    expect(left.html).toContain('配信停止の手続きが済んでいるため')
    expect(left.html).not.toContain('<button')
  })
})

describe('a sign-up that no longer waits says so instead of a place', () => {
  it('notified, expired, purchased, unconfirmed and suppressed', async () => {
    const at = new Date(T0 + 24 * 60 * 60_000).toISOString()
    const notified = await seedSubscription(world.repositories(), {
      status: 'notified',
      notifiedAt: at,
    })
    const page = await open(linkOf(notified))
    expect(page.status).toBe(200)
    expect(placeOn(page.html)).toBeNull()
    expect(page.html).toContain('<dt>状況</dt><dd>お知らせ済み</dd>')
    expect(page.html).toContain(
      '再入荷のお知らせを 2026年1月6日 10:00（日本時間） にお送りしました',
    )
    expect(page.html).not.toContain('<button')

    const expired = await seedSubscription(world.repositories(), {
      status: 'unsubscribed',
      unsubscribedAt: at,
      unsubscribeReason: 'expired',
    })
    expect((await open(linkOf(expired))).html).toContain('ご登録の有効期限が過ぎたため')
    const purchased = await seedSubscription(world.repositories(), {
      status: 'unsubscribed',
      unsubscribedAt: at,
      unsubscribeReason: 'purchased',
    })
    expect((await open(linkOf(purchased))).html).toContain('ご購入いただいたため')

    const unconfirmed = await seedSubscription(world.repositories(), { confirmedAt: null })
    const waitingForConfirmation = await open(linkOf(unconfirmed))
    expect(waitingForConfirmation.html).toContain('<dt>状況</dt><dd>登録の確定待ち</dd>')
    // why: it is pending, so it can still be stopped
    expect(waitingForConfirmation.html).toContain('配信を停止する')

    const bounced = await seedSubscription(world.repositories(), { email: 'bounced@example.test' })
    await world.repositories().suppressions.suppress(bounced.email, 'bounce', at)
    expect((await open(linkOf(bounced))).html).toContain('<dd>お知らせを停止中</dd>')
  })
})

describe('the signed link', () => {
  it('forged or altered: the 403 page; garbled or missing: 400; a deleted sign-up: 404', async () => {
    const [subscription] = await seedQueue(1)
    const forged = await open(createStatusToken(subscription, 'another-secret', T0))
    expect(forged.status).toBe(403)
    expect(forged.html).toContain('リンクが無効です')

    const [payload, signature] = linkOf(subscription).split('.')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    const other = { ...claims, productSlug: 'chasen-takayama' }
    const altered = `${Buffer.from(JSON.stringify(other)).toString('base64url')}.${signature}`
    expect((await open(altered)).status).toBe(403)
    // why: a link of another purpose (the unsubscribe link) names the same sign-up, yet is refused
    const unsubscribe = signRecordToken(PURPOSES.unsubscribeLink, subscription, SECRET)
    expect((await open(unsubscribe)).status).toBe(403)

    expect((await open('broken')).status).toBe(400)
    const context = world.context()
    const missing = await notifyStatus({ now: () => NOW })(
      new Request('http://localhost:8888/notify/status'),
      context,
    )
    expect(missing.status).toBe(400)
    expect(await missing.text()).toContain('リンクが正しくありません')
    expect(eventsOf(world.logs, 'queue_status.rejected').map((line) => line.reason)).toEqual([
      'bad-signature',
      'bad-signature',
      'bad-signature',
      'malformed',
      'missing token',
    ])

    await world.repositories().subscriptions.remove(subscription)
    const gone = await open(linkOf(subscription))
    expect(gone.status).toBe(404)
    expect(gone.html).toContain('ご登録が見つかりませんでした')
  })

  it('works for a year after it was made, then answers the 410 page', async () => {
    const [subscription] = await seedQueue(1)
    const token = linkOf(subscription, T0)
    expect((await open(token, T0 + STATUS_LINK_LIFETIME_MS - 1)).status).toBe(200)
    const expired = await open(token, T0 + STATUS_LINK_LIFETIME_MS)
    expect(expired.status).toBe(410)
    expect(expired.html).toContain('リンクの有効期限が切れています')
  })

  it('answers only GET', async () => {
    const [subscription] = await seedQueue(1)
    const context = world.context()
    const response = await notifyStatus({ now: () => NOW })(
      new Request(statusUrl('http://localhost:8888', linkOf(subscription)), { method: 'POST' }),
      context,
    )
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, OPTIONS')
  })
})

describe('where the link and the place come from', () => {
  it('the sign-up answers its place, and its e-mail carries the place and the link', async () => {
    await seedQueue(11)
    const context = world.context()
    const answer = await readJson(
      await notifySignup(
        jsonRequest('/api/notify-signup', { email: 'twelfth@example.test', productSlug: PRODUCT }),
        context,
      ),
    )
    await context.settled()
    expect(answer.status).toBe(200)
    subscriptionCreated.parse(answer.body)
    expect(answer.body.queue).toEqual({ place: 12, waiting: 12 })
    const [email] = eventsOf(world.logs, 'email.logged').filter(
      (line) => line.to === 'twelfth@example.test',
    )
    expect(email.text).toContain('入荷待ちの順番: 12 番目（入荷待ち 12 人）')
    const link = /入荷待ちの状況: (\S+)/.exec(String(email.text))?.[1]
    expect(link).toMatch(/^http:\/\/localhost:8888\/notify\/status\?token=/)
    const token = new URL(link!).searchParams.get('token')!
    expect(placeOn((await open(token, Date.now())).html)).toBe('12 番目（入荷待ち 12 人）')
  })

  it('with double opt-in the answer has no place; the confirmed page links the status page', async () => {
    process.env.NOTIFY_DOUBLE_OPT_IN = 'true'
    try {
      await seedQueue(2)
      const context = world.context()
      const answer = await readJson(
        await notifySignup(
          jsonRequest('/api/notify-signup', {
            email: 'confirming@example.test',
            productSlug: PRODUCT,
          }),
          context,
        ),
      )
      await context.settled()
      expect(answer.body).toEqual({
        success: true,
        subscriptionId: answer.body.subscriptionId,
        confirmationRequired: true,
      })
      const [email] = eventsOf(world.logs, 'email.logged').filter(
        (line) => line.to === 'confirming@example.test',
      )
      const confirmLink = new URL(/(http\S+notify-confirm\S+)/.exec(String(email.text))![1])
      const confirmed = await notifyConfirm(
        new Request(`http://localhost:8888${confirmLink.pathname}${confirmLink.search}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: '',
        }),
        world.context(),
      )
      const html = await confirmed.text()
      expect(html).toContain('登録が確定しました')
      const href = /<a href="([^"]+\/notify\/status\?token=[^"]+)">入荷待ちの状況<\/a>/.exec(html)
      expect(href).not.toBeNull()
      const token = new URL(href![1].replaceAll('&amp;', '&')).searchParams.get('token')!
      expect(placeOn((await open(token, Date.now())).html)).toBe('3 番目（入荷待ち 3 人）')
    } finally {
      delete process.env.NOTIFY_DOUBLE_OPT_IN
    }
  })
})
