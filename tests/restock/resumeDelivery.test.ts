import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import resumeModule from '../../netlify/functions/admin-notify-resume.js'
import scheduledModule, {
  config as scheduledConfig,
} from '../../netlify/functions/resume-stalled-deliveries.js'
import { createLogger } from '../../src/lib/log.js'
import { runDelivery } from '../../src/lib/restock/deliveryRun.js'
import { deliveryStarter } from '../../src/lib/restock/deliveryStarter.js'
import { issueDeliveryTicket } from '../../src/lib/restock/deliveryTicket.js'
import { sendRestockNotification } from '../../src/lib/restock/sendRestockNotification.js'
import { resumeStalledDeliveries } from '../../src/lib/restock/stalledDeliveries.js'
import { fakeContext } from '../helpers/context.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { EMAIL_READY, useDeliveryHarness } from './deliveryHarness.js'
import { fakeClock, FROM, resendReply, SECRET, seedMany, ticketIn } from './restockTestKit.js'
import { captureLogs } from '../helpers/logs.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * Resuming a restock delivery: by hand (POST /api/admin/notify/resume) and by the scheduled
 * sweep. A recording server stands in for the deploy, so a "start" is the POST to the
 * background function that Netlify would answer with 202.
 */

const harness = useDeliveryHarness()
/** docs/architecture.md: a delivery idle this long is resumed by the schedule… */
const STALL_AFTER_MS = 20 * 60 * 1000
/** …unless it has been idle longer than this (Resend keeps idempotency keys 24 h). */
const AUTO_RESUME_LIMIT_MS = 23 * 60 * 60 * 1000
const RESUME_PATH = '/api/admin/notify/resume'
const TRIGGER_PATH = '/.netlify/functions/notify-deliver-background'
let deploy: RecordingServer

beforeAll(async () => {
  deploy = await startRecordingServer()
})
afterAll(async () => {
  await deploy.close()
})
beforeEach(() => {
  deploy.requests.length = 0
  deploy.reply = () => ({ status: 202 })
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.RESEND_API_KEY = 're_test'
  process.env.RESEND_FROM_EMAIL = FROM
})

/** Queues a delivery to `count` new subscribers at the clock's time. */
async function queueAt(clock: ReturnType<typeof fakeClock>, count: number): Promise<string> {
  const productSlug = harness.freshProduct()
  await seedMany(harness.repositories, count, { productSlug })
  const summary = await sendRestockNotification(
    { productSlug, emailTitle: '再入荷', emailBody: '入荷しました。' },
    {
      repositories: harness.repositories,
      config: { emailDelivery: EMAIL_READY },
      log: createLogger('test'),
      startDelivery: async () => undefined,
      now: clock.now,
    },
  )
  return summary.notificationId
}

/** Delivers one batch and stops, as a run that hit its time budget whose continuation was lost. */
async function deliverOneBatch(id: string, clock: ReturnType<typeof fakeClock>) {
  const { deliveryOptions, continued } = harness.options(clock, { budgetMs: 1 })
  const run = await runDelivery(id, deliveryOptions)
  expect(run.state).toBe('continued')
  expect(continued).toEqual([id])
}

async function callResume(body: unknown, token: string | null = ADMIN_TOKEN) {
  const context = fakeContext()
  const response = await resumeModule(
    jsonRequest(`${deploy.url}${RESUME_PATH}`, body, { token }),
    context,
  )
  await context.settled()
  return readJson(response)
}

function startsOf(id: string) {
  return deploy.requests.filter(
    (request) => request.path === TRIGGER_PATH && request.json?.notificationId === id,
  )
}

describe('POST /api/admin/notify/resume', () => {
  it('answers where a stopped delivery stands and starts the background delivery', async () => {
    const clock = fakeClock()
    const id = await queueAt(clock, 25)
    harness.resend.reply = resendReply(new Set())
    await deliverOneBatch(id, clock)

    const { status, body } = await callResume({ notificationId: id })

    expect(status).toBe(200)
    expect(body).toMatchObject({
      success: true,
      notificationId: id,
      deliveryState: 'delivering',
      deliveryMode: 'email',
      recipientCount: 25,
      sentCount: 10,
      failedCount: 0,
      pendingCount: 15,
      batchCount: 3,
      settledBatchCount: 1,
      lastBatchAt: new Date(clock.now()).toISOString(),
      completedAt: null,
      started: true,
    })
    const [start] = startsOf(id)
    expect(start.method).toBe('POST')
    expect(ticketIn(start.headers.authorization)).toMatchObject({ ok: true, notificationId: id })
    expect(deploy.requests).toHaveLength(1)
  })

  it('answers a complete delivery without starting anything', async () => {
    const clock = fakeClock()
    const id = await queueAt(clock, 3)
    harness.resend.reply = resendReply(new Set())
    const run = await runDelivery(id, harness.options(clock).deliveryOptions)
    expect(run.state).toBe('complete')

    const { status, body } = await callResume({ notificationId: id })
    expect(status).toBe(200)
    expect(body).toMatchObject({
      success: true,
      deliveryState: 'complete',
      sentCount: 3,
      failedCount: 0,
      pendingCount: 0,
      started: false,
    })
    expect(body.completedAt).toEqual(expect.any(String))
    expect(deploy.requests).toEqual([])
  })

  it('answers 404 for an unknown notification, 400 without an id, 401 without the token', async () => {
    expect(await callResume({ notificationId: 'notif_unknown' })).toMatchObject({
      status: 404,
      body: { success: false, error: 'Notification not found' },
    })
    expect(await callResume({ notificationId: '../x' })).toMatchObject({ status: 404 })
    expect(await callResume({})).toMatchObject({
      status: 400,
      body: { success: false, error: 'notificationId is required' },
    })
    expect(await callResume({ notificationId: 'notif_x' }, null)).toMatchObject({ status: 401 })
    expect(deploy.requests).toEqual([])
  })

  it('answers 503 when the background function cannot be started', async () => {
    const clock = fakeClock()
    const id = await queueAt(clock, 2)
    deploy.reply = () => ({ status: 500 })
    const { status, body } = await callResume({ notificationId: id })
    expect(status).toBe(503)
    expect(body).toEqual({ success: false, error: 'Delivery could not be started; try again' })
  })
})

describe('the scheduled sweep of stalled deliveries', () => {
  function sweepAt(clock: ReturnType<typeof fakeClock>) {
    return resumeStalledDeliveries({
      repositories: harness.repositories,
      log: createLogger('schedule-test'),
      now: clock.now,
      startDelivery: deliveryStarter({
        origin: deploy.url,
        ticketFor: (id) => issueDeliveryTicket(id, SECRET, clock.now()),
        log: createLogger('schedule-test'),
        defer: () => undefined,
      }),
    })
  }

  it(`resumes a delivery idle ${STALL_AFTER_MS / 60_000} minutes since its last batch, not sooner, with a log line`, async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 23, 1, 0, 0))
    const id = await queueAt(clock, 25)
    await deliverOneBatch(id, clock)

    clock.advance(STALL_AFTER_MS - 60_000)
    expect((await sweepAt(clock)).resumed).not.toContain(id)
    expect(startsOf(id)).toEqual([])

    clock.advance(60_000)
    const logs = captureLogs()
    const sweep = await sweepAt(clock)
    expect(sweep.resumed).toContain(id)
    const [start] = startsOf(id)
    expect(ticketIn(start.headers.authorization, clock.now())).toMatchObject({
      ok: true,
      notificationId: id,
    })
    const lines = logs.filter((line) => line.level === 'info')
    expect(
      lines.filter((line) => line.notificationId === id && line.requestId === 'schedule-test'),
    ).toEqual([
      expect.objectContaining({
        event: 'restock.delivery.resumed',
        by: 'schedule',
        deliveryState: 'delivering',
        idleMinutes: STALL_AFTER_MS / 60_000,
        settledBatches: 1,
        batchCount: 3,
        pendingCount: 15,
      }),
    ])
  })

  it('resumes a delivery queued but never started, counting from when it was queued', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 23, 2, 0, 0))
    const id = await queueAt(clock, 4)
    clock.advance(STALL_AFTER_MS - 1)
    expect((await sweepAt(clock)).resumed).not.toContain(id)
    clock.advance(1)
    expect((await sweepAt(clock)).resumed).toContain(id)
    expect(startsOf(id)).toHaveLength(1)
  })

  it('never resumes a complete delivery', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 23, 3, 0, 0))
    const id = await queueAt(clock, 2)
    await runDelivery(id, harness.options(clock).deliveryOptions)
    clock.advance(STALL_AFTER_MS * 2)
    const sweep = await sweepAt(clock)
    expect([...sweep.resumed, ...sweep.leftForHand, ...sweep.failed]).not.toContain(id)
    expect(startsOf(id)).toEqual([])
  })

  it('leaves a delivery idle past the idempotency window to a person, with a warning', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 23, 4, 0, 0))
    const id = await queueAt(clock, 12)
    await deliverOneBatch(id, clock)
    clock.advance(AUTO_RESUME_LIMIT_MS + 60_000)
    const logs = captureLogs()
    const sweep = await sweepAt(clock)
    expect(sweep.leftForHand).toContain(id)
    expect(sweep.resumed).not.toContain(id)
    expect(startsOf(id)).toEqual([])
    const warnings = logs.filter((line) => line.level !== 'info')
    expect(warnings).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        event: 'restock.delivery.stalled_too_long',
        notificationId: id,
        howToResume: `POST /api/admin/notify/resume {"notificationId": "${id}"} with the admin token`,
      }),
    )
  })

  it('reports a start that fails and tries again at the next sweep', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 23, 5, 0, 0))
    const id = await queueAt(clock, 2)
    clock.advance(STALL_AFTER_MS)
    deploy.reply = () => ({ status: 500 })
    expect((await sweepAt(clock)).failed).toContain(id)
    deploy.reply = () => ({ status: 202 })
    clock.advance(10 * 60_000)
    expect((await sweepAt(clock)).resumed).toContain(id)
  })

  it('runs every 10 minutes as a scheduled function that starts deliveries at the site address', async () => {
    expect(scheduledConfig.schedule).toBe('*/10 * * * *')
    const id = await queueAt(fakeClock(Date.now() - STALL_AFTER_MS - 60_000), 2)
    process.env.SITE_URL = deploy.url
    try {
      const context = fakeContext()
      const response = await scheduledModule(
        jsonRequest('/.netlify/functions/resume-stalled-deliveries', {
          next_run: new Date(Date.now() + 600_000).toISOString(),
        }),
        context,
      )
      await context.settled()
      const { status, body } = await readJson(response)
      expect(status).toBe(200)
      expect(body.resumed).toContain(id)
      expect(startsOf(id)).toHaveLength(1)
    } finally {
      delete process.env.SITE_URL
    }
  })
})
