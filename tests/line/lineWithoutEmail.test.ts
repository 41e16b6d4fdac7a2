import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import historyModule from '../../netlify/functions/admin-notify-history.js'
import resumeModule from '../../netlify/functions/admin-notify-resume.js'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { lineRetryKey, NOT_A_FRIEND } from '../../src/lib/restock/lineDelivery.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { LINE_NOT_READY } from '../../src/lib/restock/sendPreparation.js'
import { LINE_NOT_STARTED } from '../../src/lib/restock/sendRestockNotification.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { openServices } from '../../src/lib/services.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import {
  callSendEndpoint,
  freshProduct,
  seedSubscription,
  startSite,
  useSendSettings,
  VALID_SEND,
} from '../restock/restockTestKit.js'
import { seedLineSubscriber } from './lineTestKit.js'

/**
 * A shop with LINE and no e-mail provider: a send records its e-mail recipients at once (§4.8,
 * as without LINE) and the background delivery pushes its LINE recipients all the same, each
 * with its retry key; a LINE user known not to be a friend is recorded as failed; the notice
 * stays record-only. LINE without UNSUBSCRIBE_SECRET is refused (503), nothing changed. While
 * the delivery runs, the history and the resume answer count the recorded e-mail recipients as
 * settled from the start (the totals its history has once complete); a delivery that stopped
 * midway is finished by the resume, each push once; one that cannot start answers its own 503
 * and changes nothing, unless an automatic wave sent it: that notice records its e-mail
 * recipients and stays queued for the scheduled resume, which pushes the LINE ones.
 */

const restock = useSendSettings()
let standIn: LineStandIn
let site: Awaited<ReturnType<typeof startSite>>
/** Runs of the background function let through; the others are lost, as a dropped continuation. */
let runsLeft = Number.POSITIVE_INFINITY

beforeAll(async () => {
  standIn = await startLineStandIn({ loginChannelId: '1', loginChannelSecret: 'secret' })
  site = await startSite(async (request, context) => {
    if (runsLeft <= 0) return new Response(null, { status: 202 })
    runsLeft -= 1
    return deliverModule(request, context)
  })
})
afterAll(async () => {
  await site.close()
  await standIn.close()
})
beforeEach(() => {
  Object.assign(process.env, {
    LINE_LOGIN_CHANNEL_ID: '1',
    LINE_LOGIN_CHANNEL_SECRET: 'secret',
    LINE_MESSAGING_CHANNEL_ACCESS_TOKEN: 'token',
    LINE_MESSAGING_CHANNEL_SECRET: 'messaging-secret',
    LINE_API_BASE_URL: standIn.url,
    LINE_LOGIN_BASE_URL: standIn.url,
    SITE_URL: 'https://shop.example.test',
  })
  standIn.pushes.length = 0
  standIn.repeatedKeys.length = 0
  site.received.length = 0
  runsLeft = Number.POSITIVE_INFINITY
})

const lineSubscriber = (productSlug: string, friend: boolean) =>
  seedLineSubscriber(restock.repositories, productSlug, friend)

describe('LINE pushes without an e-mail provider', () => {
  it('records the e-mail recipients at once and pushes the LINE ones in the background', async () => {
    const productSlug = freshProduct()
    const byEmail = await seedSubscription(restock.repositories, { productSlug })
    const friend = await lineSubscriber(productSlug, true)
    const stranger = await lineSubscriber(productSlug, false)

    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: site.url },
    )
    expect(status).toBe(200)
    expect(body.sentCount).toBe(3)
    const { subscriptions, history } = restock.repositories
    // the e-mail recipient is only recorded, as without LINE (§4.8)
    expect((await subscriptions.get(byEmail))?.status).toBe('notified')
    expect(site.received).toHaveLength(1)

    const [run] = await site.idle()
    expect(run.status).toBe(200)
    expect(standIn.pushes.map(({ to, retryKey }) => ({ to, retryKey }))).toEqual([
      { to: friend.lineUserId, retryKey: lineRetryKey(body.notificationId, friend.id) },
    ])
    expect((await subscriptions.get(friend))?.status).toBe('notified')
    expect((await subscriptions.get(stranger))?.status).toBe('pending')
    const stored = await history.get({ id: body.notificationId })
    expect(stored).toMatchObject({
      deliveryMode: 'record-only',
      deliveryState: 'complete',
      status: 'sent',
      sentCount: 2,
      failedRecipients: [{ email: '', error: `${NOT_A_FRIEND}（登録ID ${stranger.id}）` }],
    })
  })

  it('starts no delivery when no LINE sign-up waits', async () => {
    const productSlug = freshProduct()
    const byEmail = await seedSubscription(restock.repositories, { productSlug })
    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: site.url },
    )
    expect(status).toBe(200)
    expect(site.received).toEqual([])
    expect((await restock.repositories.subscriptions.get(byEmail))?.status).toBe('notified')
    expect(await restock.repositories.history.get({ id: body.notificationId })).toMatchObject({
      deliveryMode: 'record-only',
      deliveryState: 'complete',
    })
  })

  it('refuses with 503 and changes nothing when UNSUBSCRIBE_SECRET is unset', async () => {
    delete process.env.UNSUBSCRIBE_SECRET
    const productSlug = freshProduct()
    const friend = await lineSubscriber(productSlug, true)
    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: site.url },
    )
    expect(status).toBe(503)
    expect(body.error).toBe(LINE_NOT_READY)
    expect(await restock.repositories.subscriptions.get(friend)).toEqual(friend)
    expect(site.received).toEqual([])
  })
})

/** POSTs `{notificationId}` to an admin endpoint's real handler, as the dashboard does. */
async function callAdmin(
  handler: typeof historyModule,
  path: string,
  notificationId: string,
): Promise<Awaited<ReturnType<typeof readJson>>> {
  const context = fakeContext()
  const request = jsonRequest(`${site.url}${path}`, { notificationId }, { token: ADMIN_TOKEN })
  const response = await handler(request, context)
  await context.settled()
  return readJson(response)
}

async function historyOf(notificationId: string) {
  const { status, body } = await callAdmin(
    historyModule,
    '/api/admin/notify/history',
    notificationId,
  )
  expect(status).toBe(200)
  return body.notifications[0]
}

const resume = (notificationId: string) =>
  callAdmin(resumeModule, '/api/admin/notify/resume', notificationId)

describe('a LINE delivery without an e-mail provider', () => {
  it('counts its recorded recipients while it runs, and a resume finishes it with each push once', async () => {
    process.env.DELIVERY_BUDGET_MS = '1'
    try {
      const productSlug = freshProduct()
      for (let i = 0; i < 3; i++) await seedSubscription(restock.repositories, { productSlug })
      const friends = []
      for (let i = 0; i < 12; i++) {
        friends.push(await lineSubscriber(productSlug, true))
      }
      // why: the first run pushes one batch and its continuation is lost
      runsLeft = 1
      const { status, body } = await callSendEndpoint(
        { ...VALID_SEND, productSlug },
        { base: site.url },
      )
      expect(status).toBe(200)
      expect(body.sentCount).toBe(15)
      await site.idle()
      expect(standIn.pushes).toHaveLength(10)
      const id = body.notificationId as string

      // the e-mail recipients are settled from the start; the LINE ones as pushed
      expect(await historyOf(id)).toMatchObject({
        state: 'delivering',
        deliveryMode: 'record-only',
        recipients: 15,
        sentCount: 13,
        failedCount: 0,
        pendingCount: 2,
      })
      runsLeft = Number.POSITIVE_INFINITY
      const resumed = await resume(id)
      expect(resumed.status).toBe(200)
      expect(resumed.body).toMatchObject({
        deliveryState: 'delivering',
        deliveryMode: 'record-only',
        recipientCount: 15,
        sentCount: 13,
        failedCount: 0,
        pendingCount: 2,
        batchCount: 2,
        settledBatchCount: 1,
        started: true,
      })
      await site.idle()

      const keys = standIn.pushes.map(({ retryKey }) => retryKey)
      expect(keys.toSorted()).toEqual(
        friends.map((friend) => lineRetryKey(id, friend.id)).toSorted(),
      )
      expect(standIn.repeatedKeys).toEqual([])
      // the totals while it ran are the totals once complete
      expect(await historyOf(id)).toMatchObject({
        state: 'complete',
        recipients: 15,
        sentCount: 15,
        failedCount: 0,
        pendingCount: 0,
      })
      expect(await resume(id)).toMatchObject({
        status: 200,
        body: { recipientCount: 15, sentCount: 15, pendingCount: 0, batchCount: 2, started: false },
      })
    } finally {
      delete process.env.DELIVERY_BUDGET_MS
    }
  })
})

describe('a LINE delivery that cannot be started', () => {
  let deploy: RecordingServer
  beforeAll(async () => {
    deploy = await startRecordingServer()
  })
  afterAll(async () => {
    await deploy.close()
  })

  it('answers its own 503, pushes nothing and marks nobody notified; a second send reaches them all', async () => {
    const productSlug = freshProduct()
    const byEmail = await seedSubscription(restock.repositories, { productSlug })
    const friend = await lineSubscriber(productSlug, true)
    deploy.reply = () => ({ status: 500 })

    const failed = await callSendEndpoint({ ...VALID_SEND, productSlug }, { base: deploy.url })
    expect(failed).toMatchObject({ status: 503, body: { success: false, error: LINE_NOT_STARTED } })
    const { subscriptions } = restock.repositories
    expect(await subscriptions.get(byEmail)).toEqual(byEmail)
    expect(await subscriptions.get(friend)).toEqual(friend)
    expect(standIn.pushes).toEqual([])
    const notices = (await restock.repositories.history.list()).records.filter(
      (record) => record.productSlug === productSlug,
    )
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatchObject({
      deliveryMode: 'record-only',
      deliveryState: 'complete',
      sentCount: 0,
      failedRecipients: [
        { email: byEmail.email, error: 'Delivery could not be started' },
        { email: '', error: 'Delivery could not be started' },
      ],
    })

    const again = await callSendEndpoint({ ...VALID_SEND, productSlug }, { base: site.url })
    expect(again).toMatchObject({ status: 200, body: { sentCount: 2 } })
    await site.idle()
    expect((await subscriptions.get(byEmail))?.status).toBe('notified')
    expect((await subscriptions.get(friend))?.status).toBe('notified')
    expect(standIn.pushes.map(({ to }) => to)).toEqual([friend.lineUserId])
    // the same notice sent again, as a staff member's retry or the scheduled send's next sweep
    const stored = (await restock.repositories.history.list()).records.filter(
      (record) => record.productSlug === productSlug,
    )
    expect(stored.map(({ id, sentCount }) => ({ id, sentCount }))).toEqual([
      { id: again.body.notificationId, sentCount: 2 },
    ])
  })

  it('in an automatic wave, records the e-mail recipients, stays queued for the resume, and the resume pushes the LINE ones once', async () => {
    const productSlug = freshProduct()
    const byEmail = await seedSubscription(restock.repositories, { productSlug })
    const friend = await lineSubscriber(productSlug, true)
    deploy.reply = () => ({ status: 500 })
    const config = loadConfig(process.env, { context: 'dev', origin: deploy.url })
    const waves = openServices(fakeContext(), config, createLogger('test'), {
      origin: deploy.url,
    }).waves()
    const notificationId = waves.waveNotificationId({ productSlug }, 1, 1)

    const outcome = await waves.sendWave({
      notificationId,
      productSlug,
      emailTitle: '{product} 再入荷',
      emailBody: 'ご購入は {url} から',
      limit: 10,
      trigger: { kind: 'stock-wave', episode: 1, wave: 1, quantity: 2, perUnit: 5 },
    })
    expect(outcome).toMatchObject({ state: 'sent', recipients: 2, deliveryMode: 'record-only' })
    const { subscriptions } = restock.repositories
    // the recorded part is done whatever the start did; the LINE part waits for the resume
    expect((await subscriptions.get(byEmail))?.status).toBe('notified')
    expect((await subscriptions.get(friend))?.status).not.toBe('notified')
    expect(standIn.pushes).toEqual([])
    expect(await historyOf(notificationId)).toMatchObject({
      state: 'queued',
      deliveryMode: 'record-only',
      recipients: 2,
      sentCount: 1,
      pendingCount: 1,
    })

    const resumed = await resume(notificationId)
    expect(resumed).toMatchObject({ status: 200, body: { started: true } })
    await site.idle()
    expect(standIn.pushes.map(({ to }) => to)).toEqual([friend.lineUserId])
    expect(standIn.repeatedKeys).toEqual([])
    expect((await subscriptions.get(friend))?.status).toBe('notified')
    expect(await historyOf(notificationId)).toMatchObject({
      state: 'complete',
      recipients: 2,
      sentCount: 2,
      pendingCount: 0,
    })
  })
})
