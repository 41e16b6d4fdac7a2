import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLineStandIn, type LineStandIn } from '../../platform/lineStandIn.js'
import { createLogger } from '../../src/lib/log.js'
import { createLinePusher } from '../../src/lib/notifiers/linePusher.js'
import { runDelivery } from '../../src/lib/restock/deliveryRun.js'
import {
  lineRetryKey,
  NOT_A_FRIEND,
  pushToLine,
  type LineDelivery,
} from '../../src/lib/restock/lineDelivery.js'
import { useLogCapture } from '../helpers/logs.js'
import { SITE, sentTo, useDeliveryHarness } from '../restock/deliveryHarness.js'
import { fakeClock, PRODUCT, seedMany } from '../restock/restockTestKit.js'
import { seedLineSubscriber } from './lineTestKit.js'

/**
 * Restock delivery to LINE subscribers against the LINE stand-in: one push per LINE recipient
 * beside the e-mail batch, each with its own retry key; the Flex message (picture, product,
 * counted link); a retried push not sent twice; a recipient who is not a friend recorded as
 * failed with the reason staff see; no LINE id in any log line.
 */

const harness = useDeliveryHarness()
const logs = useLogCapture()
let standIn: LineStandIn

beforeAll(async () => {
  standIn = await startLineStandIn({ loginChannelId: '1', loginChannelSecret: 'secret' })
})
afterAll(async () => {
  await standIn.close()
})

const pusher = () =>
  createLinePusher({
    settings: { apiBaseUrl: standIn.url, messagingAccessToken: 'token' },
    timeoutMs: 2000,
    log: createLogger('test'),
  })

function line(): LineDelivery {
  return {
    pusher: pusher(),
    contacts: harness.repositories.lineContacts,
    storefrontUrl: 'https://shop.example.jp',
  }
}

const lineSubscriber = (productSlug: string, friend: boolean) =>
  seedLineSubscriber(harness.repositories, productSlug, friend)

describe('restock delivery to LINE', () => {
  it('pushes each LINE subscriber once with its retry key, e-mails the others, and skips a non-friend', async () => {
    standIn.pushes.length = 0
    const productSlug = PRODUCT
    const byEmail = await seedMany(harness.repositories, 3, { productSlug })
    const friends = [
      await lineSubscriber(productSlug, true),
      await lineSubscriber(productSlug, true),
    ]
    const stranger = await lineSubscriber(productSlug, false)
    const id = await harness.queue(productSlug)
    const clock = fakeClock()

    const run = await runDelivery(id, {
      ...harness.options(clock).deliveryOptions,
      line: line(),
    })

    expect(run.state).toBe('complete')
    expect(sentTo(harness.batchCalls())).toEqual(byEmail.map((subscription) => subscription.email))
    // why: one push per friend, in no promised order (the pushes of a batch go out together)
    const byUser = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]))
    expect(standIn.pushes.map((push) => [push.to, push.retryKey]).sort(byUser)).toEqual(
      friends
        .map((subscription) => [subscription.lineUserId, lineRetryKey(id, subscription.id)])
        .sort(byUser),
    )
    const [message] = standIn.pushes[0].messages as any[]
    expect(message.type).toBe('flex')
    expect(message.altText).toContain('再入荷しました')
    expect(message.contents.hero.url).toBe(
      'https://shop.example.jp/images/products/hario-v60-dripper.jpg',
    )
    const texts = JSON.stringify(message.contents.body)
    expect(texts).toContain('HARIO V60 透過ドリッパー 02 セラミック ホワイト')
    const button = message.contents.footer.contents[0]
    expect(button.action.uri.startsWith(`${SITE}/api/r?`)).toBe(true)

    const history = (await harness.repositories.history.get({ id }))!
    expect(history.sentCount).toBe(5)
    expect(history.failedRecipients).toEqual([
      { email: '', error: `${NOT_A_FRIEND}（登録ID ${stranger.id}）` },
    ])
    const stored = await harness.statusesOf([...byEmail, ...friends, stranger])
    expect(stored.map((subscription) => subscription.status)).toEqual([
      'notified',
      'notified',
      'notified',
      'notified',
      'notified',
      'pending',
    ])
    const lineIds = [...friends, stranger].map((subscription) => subscription.lineUserId!)
    for (const lineUserId of lineIds) expect(JSON.stringify(logs)).not.toContain(lineUserId)
  })

  it('offers a LINE subscriber the unit held for them: the hold button above the product link', async () => {
    standIn.pushes.length = 0
    const productSlug = harness.freshProduct()
    await harness.repositories.stock.change({ productSlug }, (current) => ({
      ...current,
      quantity: 1,
    }))
    const friend = await lineSubscriber(productSlug, true)
    const id = await harness.queue(productSlug, { holdHours: 24 })
    const clock = fakeClock()

    const run = await runDelivery(id, { ...harness.options(clock).deliveryOptions, line: line() })

    expect(run.state).toBe('complete')
    expect(standIn.pushes.map((push) => push.to)).toEqual([friend.lineUserId])
    const [message] = standIn.pushes[0].messages as any[]
    expect(JSON.stringify(message.contents.body)).toContain('までお取り置きしています。')
    const [hold, product] = message.contents.footer.contents
    expect(hold.action.label).toBe('24時間お取り置き')
    expect(hold.action.uri.startsWith(`${SITE}/reservation/hold?token=`)).toBe(true)
    expect(product.style).toBe('secondary')
    expect(product.action.uri.startsWith(`${SITE}/api/r?`)).toBe(true)
    const stock = await harness.repositories.stock.get({ productSlug })
    expect(Object.values(stock?.holds ?? {}).map((held) => held.state)).toEqual(['open'])
  })

  it('does not send a retried push twice: LINE answers its key 409 and it counts as sent', async () => {
    standIn.pushes.length = 0
    standIn.repeatedKeys.length = 0
    const productSlug = harness.freshProduct()
    const friend = await lineSubscriber(productSlug, true)
    const id = await harness.queue(productSlug)
    const job = (await harness.repositories.deliveries.getJob(id))!
    const link = () => ({ productUrl: `${SITE}/products/${productSlug}` })

    expect(await pushToLine(job, job.recipients, line(), link)).toEqual([null])
    expect(await pushToLine(job, job.recipients, line(), link)).toEqual([null])

    expect(standIn.pushes).toHaveLength(1)
    expect(standIn.repeatedKeys).toEqual([lineRetryKey(id, friend.id)])
  })

  it('derives one UUID retry key per notice and recipient', () => {
    const key = lineRetryKey('notif_a', 'ntf_1')
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(lineRetryKey('notif_a', 'ntf_1')).toBe(key)
    expect(lineRetryKey('notif_a', 'ntf_2')).not.toBe(key)
    expect(lineRetryKey('notif_b', 'ntf_1')).not.toBe(key)
  })

  it('reads the month’s quota through the SDK', async () => {
    standIn.quota = { limit: 200, usage: 17 }
    expect(await pusher().quota()).toEqual({ limit: 200, usage: 17 })
  })
})
