import { beforeAll, describe, expect, it } from 'vitest'
import * as overviewModule from '../../netlify/functions/admin-overview.js'
import reservationHandler from '../../netlify/functions/reservation.js'
import { keywordRollup } from '../../netlify/functions/search-keywords-rollup.js'
import { overviewAnswer } from '../../src/build/api/responseSchemas.js'
import { loadConfig } from '../../src/lib/config.js'
import { jstDay, rollUpDemandDays } from '../../src/lib/demand/demandDays.js'
import { demandOverview } from '../../src/lib/overview/demandOverview.js'
import { markDelivered } from '../../src/lib/demand/restockClicks.js'
import { createLogger } from '../../src/lib/log.js'
import { createReservation } from '../../src/lib/reservations/createReservation.js'
import { openServices } from '../../src/lib/services.js'
import { notifySignup } from '../../src/lib/subscriptions/notifySignup.js'
import { fakeContext, type TestContext } from '../helpers/context.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, useApiTokens } from '../helpers/tokens.js'
import { clearOutbound } from '../forms/formTestKit.js'

/**
 * The pictures of demand through the real services and handlers on a real local Blobs server:
 * day markers per JST day (boundaries at 15:00 UTC), a rush of reservations, closed-day rollups,
 * sent/failed per batch, searches from the keyword log, the answer of POST /api/admin/overview.
 */

const UNCAPPED = 'mino-yaki-mug'
const CAPPED = 'kiyomizu-matcha-chawan'

const blobs = useBlobsServer()
beforeAll(clearOutbound)
useLogCapture()
useApiTokens()

let worlds = 0
function world() {
  const deployContext = `demand-${process.pid}-${++worlds}`
  const contexts: TestContext[] = []
  const context = () => {
    const created = fakeContext({ deployContext })
    contexts.push(created)
    return created
  }
  const services = (now?: () => number) =>
    openServices(context(), loadConfig(process.env), createLogger('demand-test'), { now })
  const reserveAt = (at: string, productSlug = UNCAPPED, quantity = 1) =>
    createReservation(
      { name: '需要 太郎', email: `d${crypto.randomUUID()}@example.com`, productSlug, quantity },
      services(() => Date.parse(at)),
    )
  const settle = () => Promise.all(contexts.map((c) => c.settled()))
  return { context, services, reserveAt, settle }
}

const dayOf = <T extends { day: string }>(series: T[], day: string) =>
  series.find((row) => row.day === day)

describe('pictures of demand', () => {
  it('counts reservations per JST day: 14:59:59 UTC is the day before 15:00:00 UTC', async () => {
    const w = world()
    await w.reserveAt('2026-11-23T14:59:59.000Z')
    await w.reserveAt('2026-11-23T15:00:00.000Z')
    await w.reserveAt('2026-11-23T15:00:01.000Z')
    const answer = await demandOverview(
      w.services(() => Date.parse('2026-11-24T03:00:00Z')),
      { days: 7 },
    )
    expect(answer.to).toBe('2026-11-24')
    expect(answer.from).toBe('2026-11-18')
    expect(answer.series).toHaveLength(7)
    expect(dayOf(answer.series, '2026-11-23')?.reservations).toBe(1)
    expect(dayOf(answer.series, '2026-11-24')?.reservations).toBe(2)
    await w.settle()
  }, 60_000)

  it('a rush of 100 reservations of one product: all 200, all counted, all in the product demand', async () => {
    const w = world()
    const started = Date.now()
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        reservationHandler(
          jsonRequest('/api/reservation', {
            name: '急ぎ 太郎',
            email: `rush${i}-${crypto.randomUUID()}@example.com`,
            productSlug: UNCAPPED,
          }),
          w.context(),
        ).then(readJson),
      ),
    )
    const ended = Date.now()
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200))
    await w.settle()
    // why: markers carry the day of their own write; the rush may straddle a JST midnight
    const days = [...new Set([jstDay(started), jstDay(ended)])]
    const { demand } = w.services().repositories
    const counts = await Promise.all(days.map((day) => demand.countMarked('reservations', day)))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(100)
    const answer = await demandOverview(
      w.services(() => ended),
      { days: 7 },
    )
    expect(answer.series.reduce((sum, row) => sum + row.reservations, 0)).toBe(100)
    expect(answer.products.find((p) => p.productSlug === UNCAPPED)).toMatchObject({
      reservedUnits: 100,
      cap: null,
    })
  }, 120_000)

  it('a closed day is read from its rollup; the scheduled run writes it once', async () => {
    const w = world()
    await w.reserveAt('2026-11-20T01:00:00.000Z')
    await w.reserveAt('2026-11-20T02:00:00.000Z')
    const now = Date.parse('2026-11-21T05:00:00Z')
    const response = await keywordRollup({ now: () => now })(
      new Request('http://localhost/.netlify/functions/search-keywords-rollup', {
        method: 'POST',
        body: JSON.stringify({ next_run: '2026-11-21T06:00:00Z' }),
      }),
      w.context(),
    )
    const { status, body } = await readJson(response)
    expect(status).toBe(200)
    expect(body.demandDays).toBeGreaterThan(0)
    const { demand } = w.services().repositories
    expect(await demand.readRollup('reservations', '2026-11-20')).toEqual({
      day: '2026-11-20',
      count: 2,
    })
    // a marker that appears in the closed day afterwards changes nothing: the rollup is the answer
    await demand.mark('reservations', '2026-11-20', 'res_extra')
    const answer = await demandOverview(
      w.services(() => now),
      { days: 7 },
    )
    expect(dayOf(answer.series, '2026-11-20')?.reservations).toBe(2)
    // a second run writes nothing new for that day
    const again = await rollUpDemandDays(
      { demand, keywordLog: w.services().keywordLog },
      { now, budgetMs: Infinity },
    )
    expect(again.filter((rolled) => rolled.endsWith('/2026-11-20'))).toEqual([])
    await w.settle()
  }, 60_000)

  it('counts sign-ups, e-mails sent and failed per day, searches and zero-result searches with their trend', async () => {
    const w = world()
    const s = w.services()
    await notifySignup(
      { email: `s${crypto.randomUUID()}@example.com`, productSlug: CAPPED },
      w.services(() => Date.parse('2026-11-22T03:00:00Z')),
    )
    const batch = (n: number, sent: number, failed: number) => ({
      batch: n,
      deliveredIds: Array.from({ length: sent }, (_, i) => `ntf_${i}`),
      failed: Array.from({ length: failed }, (_, i) => ({
        subscriptionId: `ntf_f${i}`,
        email: 'x@example.com',
        error: 'bounce',
      })),
      finishedAt: '2026-11-22T04:00:00Z',
    })
    await markDelivered(s, 'notif_1', batch(0, 10, 0), Date.parse('2026-11-22T04:00:00Z'))
    await markDelivered(s, 'notif_1', batch(1, 7, 3), Date.parse('2026-11-22T04:00:01Z'))
    // the same batch settled twice (a retried run) counts once
    await markDelivered(s, 'notif_1', batch(1, 7, 3), Date.parse('2026-11-22T04:00:02Z'))
    const search = (keyword: string, at: string, resultCount = 3) =>
      s.keywordLog.append({ keyword, timestamp: at, resultCount })
    await search('急須', '2026-11-22T05:00:00.000Z')
    await search('急須', '2026-11-22T06:00:00.000Z')
    await search('teapot', '2026-11-22T07:00:00.000Z', 0)
    await search('急須', '2026-11-12T07:00:00.000Z') // the period before
    const answer = await demandOverview(
      w.services(() => Date.parse('2026-11-23T12:00:00Z')),
      {
        days: 7,
      },
    )
    expect(dayOf(answer.series, '2026-11-22')).toEqual({
      day: '2026-11-22',
      reservations: 0,
      signups: 1,
      sent: 17,
      failed: 3,
      searches: 3,
      zeroSearches: 1,
    })
    expect(answer.topQueries[0]).toEqual({ query: '急須', count: 2, previous: 1 })
    expect(answer.zeroResultQueries).toEqual([{ query: 'teapot', count: 1, previous: 0 }])
    expect(answer.products.find((p) => p.productSlug === CAPPED)).toMatchObject({ cap: 5 })
    await w.settle()
  }, 60_000)

  it('notices read from the history’s counters answer as read from the records', async () => {
    const w = world()
    const at = Date.parse('2026-11-24T03:00:00Z')
    const services = w.services(() => at)
    const { history } = services.repositories
    const notice = (i: number, fields: Record<string, unknown>) => ({
      id: `notif_${i}${crypto.randomUUID().slice(1)}`,
      productSlug: CAPPED,
      emailTitle: '再入荷',
      emailBody: '',
      recipientEmails: [],
      sentCount: 3 + i,
      timestamp: new Date(at - i * 3_600_000).toISOString(),
      status: 'sent' as const,
      failedRecipients: i % 2 ? [{ email: `f${i}@example.jp`, error: 'bounced' }] : [],
      ...fields,
    })
    const notices = [
      notice(1, { deliveryState: 'complete', deliveryMode: 'email' }),
      notice(2, { deliveryState: 'complete', deliveryMode: 'record-only' }),
      notice(3, { status: 'failed' }),
      notice(4, { productSlug: 'shop-tshirt', variant: 'm', deliveryState: 'delivering' }),
      notice(5, { timestamp: new Date(at - 40 * 86_400_000).toISOString() }),
    ]
    // why: an empty history's counters are made exact before the notices are written
    expect(await history.groupCounts()).toEqual([])
    for (const record of notices) await history.create(record, record)
    expect(await history.groupCounts({ completing: false })).toHaveLength(5)
    const fromCounters = await demandOverview(services, { days: 30 })
    // why: the same answer with the counters not exact (read from the records instead)
    const { store } = services.repositories
    const { blobs: shards } = await store.list({ prefix: 'counters/notif-history/' })
    for (const { key } of shards) await store.delete(key)
    expect(await history.groupCounts({ completing: false })).toBeNull()
    const fromRecords = await demandOverview(
      w.services(() => at),
      { days: 30 },
    )
    expect(fromRecords.notices).toHaveLength(4)
    expect(fromCounters.notices).toEqual(fromRecords.notices)
    expect(fromRecords.notices.map((line) => line.deliveryMode)).toEqual([
      'email',
      'record-only',
      null,
      'email',
    ])
    await w.settle()
  }, 60_000)

  it('a 90-day picture of a shop without events reads no day: a handful of listings', async () => {
    const w = world()
    const services = w.services(() => Date.parse('2026-11-24T03:00:00Z'))
    blobs.operations.length = 0
    const answer = await demandOverview(services, { days: 90 })
    expect(answer.series.every((row) => row.reservations === 0 && row.searches === 0)).toBe(true)
    const gets = blobs.operations.filter((op) => op.type === 'get').length
    // listings of days, of the stored ledgers and of the record indexes' markers, bases and
    // deltas (the empty collections' indexes are adopted): never one per day of the 90, nor one
    // per capped product (no ledger is stored); the gets are the counters of the two
    // collections and of the history
    expect(blobs.operations.length).toBeLessThan(40)
    expect(gets).toBeLessThanOrEqual(9)
  }, 60_000)

  it('POST /api/admin/overview: 401 without the token, 400 for other periods, the documented answer', async () => {
    const w = world()
    const call = async (body: unknown, token: string | null = ADMIN_TOKEN) => {
      const ctx = w.context()
      const answer = await readJson(
        await overviewModule.default(jsonRequest('/api/admin/overview', body, { token }), ctx),
      )
      await ctx.settled()
      return answer
    }
    expect((await call({ days: 7 }, null)).status).toBe(401)
    const bad = await call({ days: 14 })
    expect(bad).toMatchObject({
      status: 400,
      body: { success: false, error: 'days must be 7, 30 or 90' },
    })
    for (const days of [7, 30, 90]) {
      const { status, body } = await call({ days })
      expect(status).toBe(200)
      expect(overviewAnswer.safeParse(body).success).toBe(true)
      expect(body.series).toHaveLength(days)
    }
  }, 120_000)
})
