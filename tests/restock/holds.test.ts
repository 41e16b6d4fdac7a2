import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import { adminNotifySend } from '../../netlify/functions/admin-notify-send.js'
import { notifyStatus } from '../../netlify/functions/notify-status.js'
import { reservationHold } from '../../netlify/functions/reservation-hold.js'
import { stockReconcile } from '../../netlify/functions/stock-reconcile.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { runDelivery } from '../../src/lib/restock/deliveryRun.js'
import { sendRestockWave } from '../../src/lib/restock/restockWave.js'
import { sendRestockNotification } from '../../src/lib/restock/sendRestockNotification.js'
import { openServices } from '../../src/lib/services.js'
import { saveAutoNotice } from '../../src/lib/stock/autoNotice.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { runDueWave, type WaveOptions } from '../../src/lib/stock/stockWaves.js'
import { holdCountsOf, openHoldFor } from '../../src/lib/storage/restockHolds.js'
import type { ProductRecordRef } from '../../src/lib/storage/records.js'
import type { StockRef } from '../../src/lib/storage/stockRecords.js'
import { createStatusToken } from '../../src/lib/subscriptions/statusLink.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { readJson } from '../helpers/requests.js'
import { useStockEnvironment } from '../stock/stockTestKit.js'
import { fakeClock, resendReply, seedMany } from './restockTestKit.js'

const HOUR = 60 * 60 * 1000
const PRODUCT = 'hario-v60-dripper'
const SITE = 'http://localhost:8888'
const AUTO = {
  enabled: true,
  emailTitle: '{product} 再入荷',
  emailBody: 'ご購入は {url} から',
  intervalMinutes: 60,
  holdHours: 24,
}

const world = useStockEnvironment()
let resend: RecordingServer

beforeAll(async () => {
  resend = await startRecordingServer()
})
afterAll(() => resend.close())
beforeEach(() => {
  resend.requests.length = 0
  resend.reply = (request) =>
    request.path === '/emails' ? { status: 200, body: { id: 'em_1' } } : resendReply()(request)
  process.env.RESEND_API_KEY = 're_test_key'
  process.env.RESEND_FROM_EMAIL = 'shop@example.test'
  process.env.RESEND_BASE_URL = resend.url
  process.env.SITE_URL = SITE
  process.env.QUIET_HOURS = 'off'
})

/** One request's services on the test's clock; deliveries run in the test, not over HTTP. */
function servicesAt(clock: ReturnType<typeof fakeClock>) {
  const config = loadConfig(process.env, { context: 'dev', origin: SITE })
  const services = openServices(world.context(), config, createLogger('test'), {
    origin: SITE,
    now: clock.now,
  })
  const started: string[] = []
  const waves: WaveOptions = {
    ...services.waves(),
    sendWave: (notice) =>
      sendRestockWave(notice, {
        ...services,
        startDelivery: async (id) => void started.push(id),
      }),
  }
  /** Delivers every notice the waves started. */
  async function deliver() {
    for (const id of started.splice(0)) {
      await runDelivery(id, { ...services.deliveryRun(), sleep: clock.sleep })
    }
  }
  return { services, waves, deliver }
}

async function setStock(clock: ReturnType<typeof fakeClock>, target: StockRef, quantity: number) {
  const { waves, deliver } = servicesAt(clock)
  const result = await applyStockLines([{ ...target, quantity }], {
    stock: waves.stock,
    log: waves.log,
    source: 'admin',
    now: clock.now,
    startWave: (each) => runDueWave(each, waves),
  })
  await deliver()
  return result
}

/** Runs the scheduled sweep at the clock's time, delivering what it started. */
async function sweep(clock: ReturnType<typeof fakeClock>) {
  const context = world.context()
  const response = await stockReconcile({ now: clock.now })(
    new Request(`${SITE}/.netlify/functions/stock-reconcile`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }),
    context,
  )
  await context.settled()
  return readJson(response)
}

/** The restock e-mails sent so far: to whom, and the hold link each carries. */
function restockEmails() {
  return resend.requests
    .filter((request) => request.path === '/emails/batch')
    .flatMap((request) => request.json as { to: string; text: string; html: string }[])
    .map((email) => ({
      to: email.to,
      text: email.text,
      html: email.html,
      link: /24時間お取り置き: (\S+)/.exec(email.text)?.[1] ?? null,
    }))
}

/** Sends a hold link (GET opens, POST claims with a name) at the clock's time. */
async function send(
  link: string,
  clock: ReturnType<typeof fakeClock>,
  method: 'GET' | 'POST',
  accept: string,
): Promise<Response> {
  const url = new URL(link)
  const context = world.context()
  const body =
    method === 'POST'
      ? new URLSearchParams({ token: url.searchParams.get('token') ?? '', name: '山田 花子' })
      : undefined
  const response = await reservationHold({ now: clock.now })(
    new Request(`${SITE}${url.pathname}${url.search}`, {
      method,
      headers: {
        Accept: accept,
        ...(body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    }),
    context,
  )
  await context.settled()
  return response
}

/** Claims a hold (POST with a name), JSON answer. */
async function claim(link: string, clock: ReturnType<typeof fakeClock>) {
  return readJson(await send(link, clock, 'POST', 'application/json'))
}

/** A hold link's page (GET, or the POST's done page). */
async function page(
  link: string,
  clock: ReturnType<typeof fakeClock>,
  method: 'GET' | 'POST' = 'GET',
) {
  const response = await send(link, clock, method, 'text/html')
  return { status: response.status, text: await response.text() }
}

/** The sign-up's 入荷待ちの状況 page (its signed link) at the clock's time. */
async function statusPage(subscription: ProductRecordRef, clock: ReturnType<typeof fakeClock>) {
  const token = createStatusToken(subscription, process.env.UNSUBSCRIBE_SECRET!, clock.now())
  const context = world.context()
  const response = await notifyStatus({ now: clock.now })(
    new Request(`${SITE}/notify/status?token=${encodeURIComponent(token)}`),
    context,
  )
  await context.settled()
  expect(response.status).toBe(200)
  return response.text()
}

async function stockOf(target: StockRef) {
  return (await world.repositories().stock.get(target))!
}

describe('units held for the people a restock wave e-mails (お取り置き)', () => {
  it('0 → 2 with 5 waiting: 2 hold links; a claim reserves and takes a unit; the other hold ends and goes to the 3rd', async () => {
    const clock = fakeClock()
    const target = { productSlug: PRODUCT }
    const waiting = await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    await saveAutoNotice({ ...AUTO, productSlug: PRODUCT }, world.repositories().stock)
    await setStock(clock, target, 0)

    await setStock(clock, target, 2)
    const sent = restockEmails()
    expect(sent.map((email) => email.to)).toEqual(waiting.slice(0, 2).map((s) => s.email))
    for (const email of sent) {
      expect(email.link).toMatch(/^http:\/\/localhost:8888\/reservation\/hold\?token=/)
      expect(email.html).toContain('>24時間お取り置き</a>')
    }
    expect(holdCountsOf(await stockOf(target))).toEqual({ open: 2, claimed: 0, expired: 0 })
    // the queue page's read: the first subscriber's open hold ends 24 h after the e-mail
    expect(await openHoldFor(world.repositories().stock, waiting[0], clock.now())).toMatchObject({
      endsAt: new Date(clock.now() + 24 * HOUR).toISOString(),
    })

    // the shopper's 入荷待ちの状況 page names the hold's end
    const status = await statusPage(waiting[0], clock)
    expect(status).toContain('2026年11月23日 12:00（日本時間） までお取り置きしています。')
    expect(await statusPage(waiting[2], clock)).not.toContain('お取り置き')

    const opened = await page(sent[0].link!, clock)
    expect(opened.status).toBe(200)
    expect(opened.text).toContain('HARIO V60 透過ドリッパー 02 セラミック ホワイト')
    expect(opened.text).toContain('2026年11月23日 12:00（日本時間）')

    const first = await claim(sent[0].link!, clock)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ success: true, alreadyReserved: false })
    const reservationId = first.body.reservationId as string
    expect(reservationId).toMatch(/^res_/)
    expect(
      await world.repositories().reservations.get({ id: reservationId, productSlug: PRODUCT }),
    ).toMatchObject({
      email: waiting[0].email,
      name: '山田 花子',
      quantity: 1,
      source: 'restock-hold',
      status: 'pending',
    })
    expect((await stockOf(target)).quantity).toBe(1)
    expect((await world.repositories().subscriptions.get(waiting[0]))?.status).toBe('notified')
    // the usual confirmation e-mail went to the shopper
    expect(
      resend.requests.some(
        (request) =>
          request.path === '/emails' && (request.json as { to: string }).to === waiting[0].email,
      ),
    ).toBe(true)

    const again = await claim(sent[0].link!, clock)
    expect(again.body).toEqual({ success: true, reservationId, alreadyReserved: true })
    const donePage = await page(sent[0].link!, clock, 'POST')
    expect(donePage.status).toBe(200)
    expect(donePage.text).toContain('このお取り置きはすでにご予約済みです。')
    expect(donePage.text).toContain(reservationId)

    const token = new URL(sent[1].link!).searchParams.get('token')!
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`
    const forged = await claim(`${SITE}/reservation/hold?token=${tampered}`, clock)
    expect(forged.status).toBe(403)
    const forgedPage = await page(`${SITE}/reservation/hold?token=${tampered}`, clock)
    expect(forgedPage.status).toBe(403)
    expect(forgedPage.text).toContain('リンクが無効です')

    // the second hold ends unclaimed: its unit goes to the 3rd oldest at the wave interval
    clock.advance(24 * HOUR)
    expect((await sweep(clock)).body).toMatchObject({ holdsEnded: 1 })
    const ended = await page(sent[1].link!, clock)
    expect(ended.status).toBe(410)
    expect(ended.text).toContain('お取り置きの期限が過ぎました')
    expect(ended.text).toContain('商品ページで再入荷のお知らせにもう一度登録する')
    expect(holdCountsOf(await stockOf(target))).toEqual({ open: 0, claimed: 1, expired: 1 })
    expect((await claim(sent[1].link!, clock)).status).toBe(410)
    expect((await sweep(clock)).body).toMatchObject({ holdsEnded: 0 })

    clock.advance(HOUR)
    await sweep(clock)
    await servicesAt(clock).deliver()
    const { records } = await world.repositories().history.list()
    const third = records.find((record) => record.recipientEmails.includes(waiting[2].email))
    expect(third).toBeDefined()
    await runDeliveryOf(clock, third!.id)
    const next = restockEmails().filter((email) => email.to === waiting[2].email)
    expect(next).toHaveLength(1)
    expect(next[0].link).not.toBeNull()
    expect(holdCountsOf(await stockOf(target))).toMatchObject({ open: 1 })

    // 20 claims of one link at once: one reservation
    const answers = await Promise.all(Array.from({ length: 20 }, () => claim(next[0].link!, clock)))
    const ids = new Set(answers.map((answer) => answer.body.reservationId))
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(ids.size).toBe(1)
    expect(answers.filter((answer) => answer.body.alreadyReserved === false)).toHaveLength(1)
    const reservations = (await world.repositories().reservations.listProduct(PRODUCT)).records
    expect(reservations.filter((r) => r.source === 'restock-hold')).toHaveLength(2)
    expect((await stockOf(target)).quantity).toBe(0)

    const trail = (await servicesAt(clock).services.auditTrail.list({}, 0, 50)).entries
    expect(trail.filter((entry) => entry.action === 'hold-claim').map((e) => e.actor)).toEqual([
      'customer',
      'customer',
    ])
    expect(trail.filter((entry) => entry.action === 'hold-expire').map((e) => e.actor)).toEqual([
      'hold-expiry',
    ])
  })

  it('a stock drop while holds are open offers fewer units next and keeps the holds sent', async () => {
    const clock = fakeClock()
    const target = { productSlug: PRODUCT }
    const waiting = await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    await saveAutoNotice({ ...AUTO, productSlug: PRODUCT }, world.repositories().stock)
    await setStock(clock, target, 3)
    const sent = restockEmails()
    expect(sent).toHaveLength(3)

    await setStock(clock, target, 1) // the shop sold two at the till
    clock.advance(HOUR)
    await sweep(clock)
    await servicesAt(clock).deliver()
    expect(restockEmails()).toHaveLength(3)
    expect(holdCountsOf(await stockOf(target))).toEqual({ open: 3, claimed: 0, expired: 0 })

    const claimed = await claim(sent[2].link!, clock)
    expect(claimed.status).toBe(200)
    expect((await stockOf(target)).quantity).toBe(0)
    expect(waiting).toHaveLength(5)
  })

  it('a variant: the wave holds the variant’s units for those waiting for it; the page names it', async () => {
    const clock = fakeClock()
    const target = { productSlug: 'mino-mug', variant: 'ai' }
    const blue = await seedMany(world.repositories(), 2, { productSlug: 'mino-mug', variant: 'ai' })
    await seedMany(world.repositories(), 1, { productSlug: 'mino-mug', variant: 'shiro' })
    await saveAutoNotice(
      { ...AUTO, productSlug: 'mino-mug', variant: 'ai' },
      world.repositories().stock,
    )
    await setStock(clock, target, 1)
    const sent = restockEmails()
    expect(sent.map((email) => email.to)).toEqual([blue[0].email])
    const opened = await page(sent[0].link!, clock)
    expect(opened.text).toContain('美濃焼 マグカップ（藍）')
    const claimed = await claim(sent[0].link!, clock)
    const reservation = await world.repositories().reservations.get({
      id: claimed.body.reservationId,
      productSlug: 'mino-mug',
    })
    expect(reservation).toMatchObject({ variant: 'ai', source: 'restock-hold', quantity: 1 })
    expect((await stockOf(target)).quantity).toBe(0)
    expect(await stockOf({ productSlug: 'mino-mug', variant: 'shiro' })).toBeNull()
  })
})

async function runDeliveryOf(clock: ReturnType<typeof fakeClock>, id: string) {
  const { services } = servicesAt(clock)
  await runDelivery(id, { ...services.deliveryRun(), sleep: clock.sleep })
}

describe('hold hours in the settings and in a staff send', () => {
  it('holdHours is 0–168 in the automatic notice, and a staff send with it holds the free units', async () => {
    const auto = await world.call(autoEndpoint, '/api/admin/notify/auto', {
      productSlug: PRODUCT,
      enabled: false,
      holdHours: 169,
    })
    expect(auto).toMatchObject({
      status: 400,
      body: { error: 'holdHours must be an integer from 0 to 168' },
    })
    const variantless = await world.call(adminNotifySend(), '/api/admin/notify/send', {
      productSlug: 'mino-mug',
      emailTitle: '再入荷',
      emailBody: '入荷しました。',
      holdHours: 24,
    })
    expect(variantless).toMatchObject({
      status: 400,
      body: { error: 'variant is required to hold units: this product has variants' },
    })

    const clock = fakeClock()
    const waiting = await seedMany(world.repositories(), 3, { productSlug: PRODUCT })
    await world.repositories().stock.change({ productSlug: PRODUCT }, (current) => ({
      ...current,
      quantity: 1,
    }))
    const started: string[] = []
    const { services } = servicesAt(clock)
    const summary = await sendRestockNotification(
      {
        productSlug: PRODUCT,
        emailTitle: '再入荷',
        emailBody: '入荷しました。',
        holdHours: 24,
      },
      { ...services, startDelivery: async (id) => void started.push(id) },
    )
    expect(summary.recipientEmails).toEqual([waiting[0].email])
    await runDeliveryOf(clock, started[0])
    expect(restockEmails().map((email) => [email.to, email.link !== null])).toEqual([
      [waiting[0].email, true],
    ])
    await expect(
      sendRestockNotification(
        { productSlug: PRODUCT, emailTitle: '再入荷', emailBody: '入荷しました。', holdHours: 24 },
        { ...services, startDelivery: async () => undefined },
      ),
    ).rejects.toThrow('No unit in stock is free to hold')
  })
})

describe('holds and the quiet hours', () => {
  it('a rise at night waits for 08:00 JST, and the hold is counted from the e-mail', async () => {
    process.env.QUIET_HOURS = '21-8'
    // 22:00 JST
    const clock = fakeClock(Date.UTC(2026, 10, 22, 13, 0, 0))
    const target = { productSlug: PRODUCT }
    const waiting = await seedMany(world.repositories(), 2, { productSlug: PRODUCT })
    await saveAutoNotice({ ...AUTO, productSlug: PRODUCT }, world.repositories().stock)
    const raised = await setStock(clock, target, 1)
    expect(raised.updated[0].wave).toMatchObject({ state: 'quiet-hours' })
    expect(restockEmails()).toEqual([])
    expect(holdCountsOf(await stockOf(target))).toMatchObject({ open: 0 })

    // 08:00 JST: the sweep sends the wave; its e-mail opens the hold
    clock.advance(10 * HOUR)
    await sweep(clock)
    const { records } = await world.repositories().history.list()
    const notice = records.find((record) => record.recipientEmails.includes(waiting[0].email))
    expect(notice).toBeDefined()
    clock.advance(5 * 60_000)
    await runDeliveryOf(clock, notice!.id)
    expect(restockEmails().map((email) => email.to)).toEqual([waiting[0].email])
    expect(await openHoldFor(world.repositories().stock, waiting[0], clock.now())).toMatchObject({
      endsAt: new Date(clock.now() + 24 * HOUR).toISOString(),
    })
    expect(restockEmails()[0].text).toContain(
      '2026年11月24日 08:05（日本時間） までお取り置きしています',
    )
  })
})

describe('a hold whose e-mail the provider refused', () => {
  it('gives its unit back at once; the next wave offers it to the oldest waiting again', async () => {
    const clock = fakeClock()
    const target = { productSlug: PRODUCT }
    const waiting = await seedMany(world.repositories(), 3, { productSlug: PRODUCT })
    resend.reply = (request) =>
      request.path === '/emails'
        ? { status: 200, body: { id: 'em_1' } }
        : resendReply(new Set([waiting[0].email]))(request)
    await saveAutoNotice({ ...AUTO, productSlug: PRODUCT }, world.repositories().stock)
    await setStock(clock, target, 1)
    expect(holdCountsOf(await stockOf(target))).toEqual({ open: 0, claimed: 0, expired: 0 })
    expect(await openHoldFor(world.repositories().stock, waiting[0], clock.now())).toBeNull()

    // why: a recipient the provider refused is not notified: still the oldest waiting
    resend.reply = (request) =>
      request.path === '/emails' ? { status: 200, body: { id: 'em_1' } } : resendReply()(request)
    clock.advance(HOUR)
    await sweep(clock)
    const { records } = await world.repositories().history.list()
    const next = records.find(
      (record) =>
        record.recipientEmails.includes(waiting[0].email) &&
        record.sentCount === 1 &&
        record.status !== 'failed',
    )
    expect(next).toBeDefined()
    await runDeliveryOf(clock, next!.id)
    expect(holdCountsOf(await stockOf(target))).toEqual({ open: 1, claimed: 0, expired: 0 })
    const again = restockEmails().filter((email) => email.to === waiting[0].email)
    expect(again).toHaveLength(2)
    expect(again[1].link).not.toBeNull()
    expect(restockEmails().some((email) => email.to === waiting[1].email)).toBe(false)
  })
})
