import { describe, expect, it } from 'vitest'
import historyEndpoint from '../../netlify/functions/admin-notify-history.js'
import sendEndpoint from '../../netlify/functions/admin-notify-send.js'
import webhook from '../../netlify/functions/stock-webhook.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { saveAutoNotice } from '../../src/lib/stock/autoNotice.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { runDueWave, runDueWaves, type WaveOptions } from '../../src/lib/stock/stockWaves.js'
import { openServices } from '../../src/lib/services.js'
import { fakeClock, seedMany } from '../restock/restockTestKit.js'
import { PRODUCT, signatureHeader, useStockEnvironment } from './stockTestKit.js'

const HOUR = 60 * 60 * 1000
const PRODUCT_TITLE = 'HARIO V60 透過ドリッパー 02 セラミック ホワイト'
const AUTO = {
  productSlug: PRODUCT,
  enabled: true,
  emailTitle: '{product} 再入荷',
  emailBody: 'ご購入は {url} から',
  perUnit: 1,
  intervalMinutes: 60,
}

describe('automatic restock notices in waves (record-only: no e-mail provider)', () => {
  const world = useStockEnvironment()

  /** The services of one request, on the test's clock. */
  function wavesAt(clock: ReturnType<typeof fakeClock>): WaveOptions {
    const log = createLogger('test')
    const config = loadConfig(process.env, { context: 'dev', origin: 'http://shop.test' })
    return openServices(world.context(), config, log, {
      origin: 'http://shop.test',
      now: clock.now,
    }).waves()
  }

  async function setStock(clock: ReturnType<typeof fakeClock>, quantity: number) {
    const waves = wavesAt(clock)
    return applyStockLines([{ productSlug: PRODUCT, quantity }], {
      stock: waves.stock,
      log: waves.log,
      source: 'admin',
      now: clock.now,
      startWave: (productSlug) => runDueWave(productSlug, waves),
    })
  }

  async function state() {
    const repositories = world.repositories()
    const { records } = await repositories.subscriptions.listProduct(PRODUCT)
    const notified = records
      .filter((record) => record.status === 'notified')
      .map((record) => record.id)
      .sort()
    const history = (await repositories.history.list()).records
      .filter((record) => record.productSlug === PRODUCT)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp))
    return { notified, history }
  }

  const idsOf = (subscribers: { id: string }[]) => subscribers.map((s) => s.id).sort()

  it('0 → 3 with 10 waiting: the 3 oldest; after the interval at stock 2 the next 2; stock 0: none', async () => {
    const clock = fakeClock()
    const subscribers = await seedMany(world.repositories(), 10, { productSlug: PRODUCT })
    await saveAutoNotice(AUTO, world.repositories().stock)
    await setStock(clock, 0)

    const raised = await setStock(clock, 3)
    expect(raised.wavesStarted).toEqual([{ productSlug: PRODUCT }])
    let seen = await state()
    expect(seen.notified).toEqual(idsOf(subscribers.slice(0, 3)))
    expect(seen.history).toHaveLength(1)
    expect(seen.history[0]).toMatchObject({
      emailTitle: `${PRODUCT_TITLE} 再入荷`,
      emailBody: `ご購入は http://shop.test/products/${PRODUCT} から`,
      recipientEmails: subscribers.slice(0, 3).map((s) => s.email),
      deliveryMode: 'record-only',
      trigger: { kind: 'stock-wave', episode: 1, wave: 1, quantity: 3, perUnit: 1 },
    })

    clock.advance(HOUR - 1)
    expect(await runDueWaves(wavesAt(clock))).toEqual({})
    await setStock(clock, 2)
    expect((await state()).notified).toHaveLength(3)
    clock.advance(1)
    const second = await runDueWaves(wavesAt(clock))
    expect(second[PRODUCT]).toMatchObject({ state: 'sent', wave: 2, recipients: 2 })
    seen = await state()
    expect(seen.notified).toEqual(idsOf(subscribers.slice(0, 5)))
    expect(seen.history.map((h) => h.trigger)).toEqual([
      { kind: 'stock-wave', episode: 1, wave: 1, quantity: 3, perUnit: 1 },
      { kind: 'stock-wave', episode: 1, wave: 2, quantity: 2, perUnit: 1 },
    ])

    await setStock(clock, 0)
    clock.advance(3 * HOUR)
    expect(await runDueWaves(wavesAt(clock))).toEqual({})
    seen = await state()
    expect(seen.notified).toHaveLength(5)
    expect(seen.history).toHaveLength(2)

    // a later rise starts again, with the next oldest
    await setStock(clock, 1)
    seen = await state()
    expect(seen.notified).toEqual(idsOf(subscribers.slice(0, 6)))
    expect(seen.history.at(-1)?.trigger).toMatchObject({ episode: 2, wave: 1, quantity: 1 })
  })

  it('sends N × perUnit per wave', async () => {
    const clock = fakeClock()
    const subscribers = await seedMany(world.repositories(), 10, { productSlug: PRODUCT })
    await saveAutoNotice({ ...AUTO, perUnit: 3 }, world.repositories().stock)
    await setStock(clock, 2)
    expect((await state()).notified).toEqual(idsOf(subscribers.slice(0, 6)))
  })

  it('no rise, no wave: stock already there when the notice is turned on, then more', async () => {
    const clock = fakeClock()
    await seedMany(world.repositories(), 4, { productSlug: PRODUCT })
    await setStock(clock, 3)
    await saveAutoNotice(AUTO, world.repositories().stock)
    const more = await setStock(clock, 5)
    expect(more.wavesStarted).toEqual([])
    clock.advance(5 * HOUR)
    expect(await runDueWaves(wavesAt(clock))).toEqual({})
    expect(await state()).toEqual({ notified: [], history: [] })
  })

  it('20 simultaneous webhooks raising the product (same and different event ids) start one wave', async () => {
    await seedMany(world.repositories(), 10, { productSlug: PRODUCT })
    await saveAutoNotice(AUTO, world.repositories().stock)
    const bodies = Array.from({ length: 20 }, (_, index) =>
      JSON.stringify({
        id: index < 10 ? 'evt_same' : `evt_${index}`,
        items: [{ productSlug: PRODUCT, quantity: 3 }],
      }),
    )
    const answers = await Promise.all(
      bodies.map((body) => world.webhook(webhook, body, signatureHeader(body))),
    )
    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    const seen = await state()
    expect(seen.history).toHaveLength(1)
    expect(seen.notified).toHaveLength(3)
    expect((await world.repositories().stock.get({ productSlug: PRODUCT }))?.waves).toMatchObject({
      episode: 1,
      nextWave: 2,
    })
    const listed = await world.call(historyEndpoint, '/api/admin/notify/history', {
      productSlug: PRODUCT,
    })
    expect(listed.body.notifications).toMatchObject([
      { recipients: 3, trigger: { kind: 'stock-wave', episode: 1, wave: 1, quantity: 3 } },
    ])
  })

  it('a crash between sending a wave and moving on neither repeats nor skips a wave', async () => {
    const clock = fakeClock()
    const subscribers = await seedMany(world.repositories(), 10, { productSlug: PRODUCT })
    await saveAutoNotice(AUTO, world.repositories().stock)
    await setStock(clock, 0)
    const crashing = wavesAt(clock)
    const send = crashing.sendWave
    crashing.sendWave = async (notice) => {
      await send(notice)
      throw new Error('the function died here')
    }
    await applyStockLines([{ productSlug: PRODUCT, quantity: 3 }], {
      stock: crashing.stock,
      log: crashing.log,
      source: 'webhook',
      now: clock.now,
      startWave: (productSlug) => runDueWave(productSlug, crashing),
    })
    expect((await state()).notified).toEqual(idsOf(subscribers.slice(0, 3)))

    // the sweep finds wave 1 due, finds it sent, and moves on without sending again
    clock.advance(10 * 60 * 1000)
    const swept = await runDueWaves(wavesAt(clock))
    expect(swept[PRODUCT]).toMatchObject({ state: 'sent', wave: 1, recipients: 3 })
    let seen = await state()
    expect(seen.history).toHaveLength(1)
    expect(seen.notified).toHaveLength(3)

    // wave 2 comes one interval after the sweep, with the next subscribers
    clock.advance(HOUR)
    expect((await runDueWaves(wavesAt(clock)))[PRODUCT]).toMatchObject({ state: 'sent', wave: 2 })
    seen = await state()
    expect(seen.notified).toEqual(idsOf(subscribers.slice(0, 6)))
    expect(seen.history.map((h) => h.trigger?.wave)).toEqual([1, 2])
  })
})

describe('one send per product at a time', () => {
  const world = useStockEnvironment()
  const send = (emailTitle: string) =>
    world.call(sendEndpoint, '/api/admin/notify/send', {
      productSlug: PRODUCT,
      emailTitle,
      emailBody: '入荷しました。',
    })

  it('answers 409 while another send chooses the recipients', async () => {
    await seedMany(world.repositories(), 3, { productSlug: PRODUCT })
    await world.repositories().sendClaims.takeLock(PRODUCT, 'notif_other', Date.now())
    const answer = await send('再入荷のお知らせ')
    expect(answer.status).toBe(409)
    expect(answer.body).toEqual({
      success: false,
      error: 'A send for this product is already in progress',
    })
  })

  it('two different sends at once e-mail each of 25 subscribers once', async () => {
    const subscribers = await seedMany(world.repositories(), 25, { productSlug: PRODUCT })
    const answers = await Promise.all([send('お知らせ A'), send('お知らせ B')])
    const statuses = answers.map((answer) => answer.status).sort()
    expect([
      [200, 409],
      [200, 400],
    ]).toContainEqual(statuses)
    const recipients = answers.flatMap((answer) => answer.body.recipientEmails ?? [])
    expect(recipients.sort()).toEqual(subscribers.map((s) => s.email).sort())
  })

  it('five identical sends at once (record-only) record one notice and notify each subscriber once', async () => {
    // why: identical sends while the notice is being delivered merge into it (tests/restock/
    // sendWithResend.test.ts); without a provider the notice is complete at once, so the later
    // ones find nobody left (400) or the lock still held (409)
    const subscribers = await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('同じお知らせ')))
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1)
    expect(answers.every((answer) => [200, 400, 409].includes(answer.status))).toBe(true)
    const ids = new Set(answers.flatMap((answer) => answer.body.notificationId ?? []))
    expect(ids.size).toBe(1)
    const history = (await world.repositories().history.list()).records
    expect(history.map((record) => record.recipientEmails.sort())).toEqual([
      subscribers.map((s) => s.email).sort(),
    ])
  })
})
