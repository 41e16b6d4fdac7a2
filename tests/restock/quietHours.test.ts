import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { adminNotifySend } from '../../netlify/functions/admin-notify-send.js'
import stockListEndpoint from '../../netlify/functions/admin-stock-list.js'
import autoEndpoint from '../../netlify/functions/admin-notify-auto.js'
import auditEndpoint from '../../netlify/functions/admin-audit-list.js'
import { stockReconcile } from '../../netlify/functions/stock-reconcile.js'
import { InvalidConfigError, loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { isQuiet, parseQuietHours, sendableAt } from '../../src/lib/quietHours.js'
import { openServices } from '../../src/lib/services.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { OTHER_PRODUCT, PRODUCT, useStockEnvironment } from '../stock/stockTestKit.js'
import { fakeClock, seedMany } from './restockTestKit.js'

/** A moment in Japan time (UTC+9), on 2026-11-22 (+ `dayOffset` days), as ms. */
const jst = (hour: number, minute = 0, dayOffset = 0) =>
  Date.UTC(2026, 10, 22 + dayOffset, hour - 9, minute)
const iso = (ms: number) => new Date(ms).toISOString()
const WINDOW = { from: 21, until: 8 }

describe('quiet hours, the pure rule (JST, no daylight saving)', () => {
  it('reads 21-8 and off; refuses anything else', () => {
    expect(parseQuietHours('21-8')).toEqual(WINDOW)
    expect(parseQuietHours(' 22 - 7 ')).toEqual({ from: 22, until: 7 })
    expect(parseQuietHours('0-24')).toEqual('invalid')
    expect(parseQuietHours('1-24')).toEqual({ from: 1, until: 24 })
    expect(parseQuietHours('OFF')).toBeNull()
    for (const bad of ['', '21', '21-8-9', '24-8', '8-8', '21:00-8:00', 'night']) {
      expect(parseQuietHours(bad), bad).toBe('invalid')
    }
  })

  it('QUIET_HOURS: default 21-8, off, and an error naming the variable', () => {
    expect(loadConfig({}).quietHours).toEqual(WINDOW)
    expect(loadConfig({ QUIET_HOURS: 'off' }).quietHours).toBeNull()
    expect(loadConfig({ QUIET_HOURS: '22-6' }).quietHours).toEqual({ from: 22, until: 6 })
    expect(() => loadConfig({ QUIET_HOURS: 'nights' })).toThrow(InvalidConfigError)
    expect(() => loadConfig({ QUIET_HOURS: 'nights' })).toThrow(/QUIET_HOURS/)
  })

  it('is quiet from 21:00 until 8:00; what falls due inside waits for 8:00', () => {
    expect(isQuiet(WINDOW, jst(20, 59))).toBe(false)
    expect(isQuiet(WINDOW, jst(21, 0))).toBe(true)
    expect(isQuiet(WINDOW, jst(3, 0))).toBe(true)
    expect(isQuiet(WINDOW, jst(7, 59))).toBe(true)
    expect(isQuiet(WINDOW, jst(8, 0))).toBe(false)
    expect(sendableAt(WINDOW, jst(20, 59))).toBe(jst(20, 59))
    expect(sendableAt(WINDOW, jst(21, 0))).toBe(jst(8, 0, 1))
    expect(sendableAt(WINDOW, jst(23, 45))).toBe(jst(8, 0, 1))
    expect(sendableAt(WINDOW, jst(3, 0))).toBe(jst(8, 0))
    expect(sendableAt(null, jst(3, 0))).toBe(jst(3, 0))
    // a window inside one day
    expect(sendableAt({ from: 12, until: 13 }, jst(12, 30))).toBe(jst(13, 0))
  })
})

describe('quiet hours hold automatic waves until their end, then send them in the order they fell due', () => {
  const world = useStockEnvironment()
  beforeEach(() => {
    process.env.QUIET_HOURS = '21-8'
  })
  afterEach(() => {
    process.env.QUIET_HOURS = 'off'
  })

  function servicesAt(clock: { now: () => number }) {
    const config = loadConfig(process.env, { context: 'dev', origin: 'http://shop.test' })
    return openServices(world.context(), config, createLogger('test'), {
      origin: 'http://shop.test',
      now: clock.now,
    })
  }

  async function setStock(clock: { now: () => number }, productSlug: string, quantity: number) {
    const waves = servicesAt(clock).waves()
    return applyStockLines([{ productSlug, quantity }], {
      stock: waves.stock,
      log: waves.log,
      source: 'admin',
      now: clock.now,
      startWave: (slug) => runDueWave(slug, waves),
    })
  }

  async function turnOn(productSlug: string) {
    const answer = await world.call(autoEndpoint, '/api/admin/notify/auto', {
      productSlug,
      enabled: true,
      emailTitle: '{product} 再入荷',
      emailBody: '{url}',
    })
    expect(answer.status).toBe(200)
  }

  async function sweep(at: number) {
    const context = world.context()
    const response = await stockReconcile({ now: () => at })(
      jsonRequest('/.netlify/functions/stock-reconcile', {}, { token: null }),
      context,
    )
    await context.settled()
    return (await readJson(response)).body
  }

  const notified = async (productSlug: string) =>
    (await world.repositories().subscriptions.listProduct(productSlug)).records.filter(
      (record) => record.status === 'notified',
    ).length

  it('a rise at 22:30 JST sends nothing until 08:00 JST, then the wave goes', async () => {
    await seedMany(world.repositories(), 5, { productSlug: PRODUCT })
    await turnOn(PRODUCT)
    const clock = fakeClock(jst(22, 30))
    await setStock(clock, PRODUCT, 0)
    const raised = await setStock(clock, PRODUCT, 2)
    expect(raised.updated[0].wave).toEqual({ state: 'quiet-hours', sendsAt: iso(jst(8, 0, 1)) })
    expect(await notified(PRODUCT)).toBe(0)

    const stockList = await world.call(stockListEndpoint, '/api/admin/stock/list', {})
    expect(stockList.body.quietHours).toEqual(WINDOW)
    const row = stockList.body.stock.find(
      (line: { productSlug: string }) => line.productSlug === PRODUCT,
    )
    expect(row.nextWaveAt).toBe(iso(jst(8, 0, 1)))

    // the night's sweeps leave it due
    for (const at of [jst(23, 0), jst(3, 0, 1), jst(7, 50, 1)]) {
      expect(await sweep(at)).toMatchObject({ wavesSent: 0, quietHoursWaiting: 1 })
    }
    expect(await notified(PRODUCT)).toBe(0)
    expect((await world.repositories().history.list()).records).toEqual([])

    // the first sweep after 08:00 sends it, to the 2 oldest, stamped with its own time
    expect(await sweep(jst(8, 0, 1))).toMatchObject({ wavesSent: 1, quietHoursWaiting: 0, left: 0 })
    expect(await notified(PRODUCT)).toBe(2)
    const [notice] = (await world.repositories().history.list()).records
    expect(notice).toMatchObject({ timestamp: iso(jst(8, 0, 1)), trigger: { wave: 1 } })
    // and again finds nothing more due now (the next wave is an interval later)
    expect(await sweep(jst(8, 10, 1))).toMatchObject({ wavesSent: 0, quietHoursWaiting: 0 })
  })

  it('two waves that fell due in the night go at 08:00 in the order they fell due', async () => {
    await seedMany(world.repositories(), 2, { productSlug: PRODUCT })
    await seedMany(world.repositories(), 2, { productSlug: OTHER_PRODUCT })
    await turnOn(PRODUCT)
    await turnOn(OTHER_PRODUCT)
    // why: the slugs sort the other way round, so only the due times can give this order
    expect(OTHER_PRODUCT < PRODUCT).toBe(true)
    await setStock(fakeClock(jst(21, 30)), PRODUCT, 0)
    await setStock(fakeClock(jst(21, 30)), OTHER_PRODUCT, 0)
    await setStock(fakeClock(jst(22, 0)), PRODUCT, 1)
    await setStock(fakeClock(jst(23, 0)), OTHER_PRODUCT, 1)
    expect(await sweep(jst(8, 0, 1))).toMatchObject({ wavesSent: 2 })
    const sent = world.logs
      .filter((line) => line.event === 'stock.wave.sent')
      .map((line) => line.productSlug)
    expect(sent).toEqual([PRODUCT, OTHER_PRODUCT])
  })

  it('QUIET_HOURS=off: the same rise at 22:30 sends at once', async () => {
    process.env.QUIET_HOURS = 'off'
    await seedMany(world.repositories(), 3, { productSlug: PRODUCT })
    await turnOn(PRODUCT)
    const clock = fakeClock(jst(22, 30))
    await setStock(clock, PRODUCT, 0)
    const raised = await setStock(clock, PRODUCT, 1)
    expect(raised.updated[0].wave).toMatchObject({ state: 'sent', recipients: 1 })
  })

  describe('a manual send scheduled for 08:00 (sendAt)', () => {
    const send = (at: number, body: Record<string, unknown>) =>
      world.call(adminNotifySend({ now: () => at }), '/api/admin/notify/send', {
        productSlug: PRODUCT,
        emailTitle: '再入荷のお知らせ',
        emailBody: '入荷しました。',
        ...body,
      })

    it('is stored at 23:00, sent by the first sweep at 08:00 to whoever waits then, once', async () => {
      const early = await seedMany(world.repositories(), 2, { productSlug: PRODUCT })
      const scheduled = await send(jst(23, 0), { sendAt: '2026-11-23T08:00:00+09:00' })
      expect(scheduled.status).toBe(200)
      expect(scheduled.body).toMatchObject({
        success: true,
        sentCount: 0,
        recipientEmails: [],
        sendAt: iso(jst(8, 0, 1)),
        timestamp: iso(jst(23, 0)),
      })
      expect(scheduled.body.scheduledSendId).toMatch(/^sch_/)
      expect(scheduled.body.notificationId).toMatch(/^notif_/)
      // someone signs up in the night: they are waiting at 08:00, so they get it too
      const late = await seedMany(world.repositories(), 1, { productSlug: PRODUCT })

      expect(await sweep(jst(7, 50, 1))).toMatchObject({ scheduledSent: 0 })
      expect(await notified(PRODUCT)).toBe(0)
      expect(await sweep(jst(8, 0, 1))).toMatchObject({ scheduledSent: 1, left: 0 })
      const history = await world.repositories().history.get({
        id: scheduled.body.notificationId,
      })
      expect(history?.recipientEmails.sort()).toEqual(
        [...early, ...late].map((subscriber) => subscriber.email).sort(),
      )
      expect(history?.timestamp).toBe(iso(jst(8, 0, 1)))
      const record = await world
        .repositories()
        .scheduledSends.get({ id: scheduled.body.scheduledSendId })
      expect(record).toMatchObject({ state: 'sent', doneAt: iso(jst(8, 0, 1)), error: null })

      // a second sweep sends it no more
      expect(await sweep(jst(8, 10, 1))).toMatchObject({ scheduledSent: 0 })
      expect((await world.repositories().history.list()).records).toHaveLength(1)

      // the audit trail names the staff member for both: the schedule and the send
      const audit = await world.call(auditEndpoint, '/api/admin/audit/list', {
        recordId: scheduled.body.notificationId,
      })
      const actions = audit.body.entries.map((entry: { action: string; actor: string }) => [
        entry.actor,
        entry.action,
      ])
      expect(actions).toEqual([
        ['admin', 'send-record-only'],
        ['admin', 'schedule'],
      ])
    })

    it('goes at the time staff chose, quiet hours or not; nobody waiting then is a failure it keeps', async () => {
      const scheduled = await send(jst(20, 0), { sendAt: iso(jst(22, 0)) })
      expect(await sweep(jst(22, 0))).toMatchObject({ scheduledSent: 1 })
      const record = await world
        .repositories()
        .scheduledSends.get({ id: scheduled.body.scheduledSendId })
      expect(record).toMatchObject({
        state: 'failed',
        error: 'No pending subscribers found for this product',
      })
    })

    it('refuses a sendAt that is no time, past, or more than 30 days ahead', async () => {
      const at = jst(12, 0)
      const cases: [unknown, string][] = [
        [
          'tomorrow',
          'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00',
        ],
        [
          '2026-11-23T08:00:00',
          'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00',
        ],
        [12345, 'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00'],
        [
          '2026-02-30T08:00:00+09:00',
          'sendAt must be an ISO 8601 time with its offset, e.g. 2026-11-24T08:00:00+09:00',
        ],
        [iso(at), 'sendAt must be in the future'],
        [iso(at - 60_000), 'sendAt must be in the future'],
        [iso(at + 31 * 24 * 3600_000), 'sendAt must be at most 30 days ahead'],
      ]
      for (const [sendAt, error] of cases) {
        const answer = await send(at, { sendAt })
        expect({ sendAt, status: answer.status, error: answer.body.error }).toEqual({
          sendAt,
          status: 400,
          error,
        })
      }
      // the §4.8 checks come first
      expect((await send(at, { emailTitle: '', sendAt: 'x' })).body.error).toBe(
        'emailTitle is required',
      )
      expect((await world.repositories().scheduledSends.list()).records).toEqual([])
      // null is "now"
      await seedMany(world.repositories(), 1, { productSlug: PRODUCT })
      expect((await send(at, { sendAt: null })).body.sentCount).toBe(1)
    })
  })
})
