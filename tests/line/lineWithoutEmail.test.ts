import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { lineRetryKey, NOT_A_FRIEND } from '../../src/lib/restock/lineDelivery.js'
import { LINE_NOT_READY } from '../../src/lib/restock/sendPreparation.js'
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
 * stays record-only. LINE without UNSUBSCRIBE_SECRET is refused (503), nothing changed.
 */

const restock = useSendSettings()
let standIn: LineStandIn
let site: Awaited<ReturnType<typeof startSite>>

beforeAll(async () => {
  standIn = await startLineStandIn({ loginChannelId: '1', loginChannelSecret: 'secret' })
  site = await startSite(deliverModule)
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
  site.received.length = 0
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
