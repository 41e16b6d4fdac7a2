import { describe, expect, it } from 'vitest'
import {
  batchAllowanceFor,
  runDelivery,
  type DeliveryRunResult,
} from '../../src/lib/restock/deliveryRun.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import type { Mailer } from '../../src/lib/notifiers/resendMailer.js'
import { sentTo, useDeliveryHarness } from './deliveryHarness.js'
import { fakeClock, resendReply, seedMany } from './restockTestKit.js'

const harness = useDeliveryHarness()
const { batchCalls, freshProduct, options, statusesOf } = harness

describe('restock delivery at scale', () => {
  it('delivers 2,500 subscribers completely over several invocations, each within its time budget', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 2500, { productSlug })
    const rejected = new Set([subscribers[0].email, subscribers[1234].email])
    harness.resend.reply = resendReply(rejected)
    // the send endpoint's snapshot, written directly: listing 2,500 fresh records is covered elsewhere
    const id = `notif_${crypto.randomUUID()}`
    await harness.jobs.saveJob({
      notificationId: id,
      productSlug,
      emailTitle: '再入荷',
      emailBody: '入荷しました',
      recipients: subscribers.map((s) => ({ subscriptionId: s.id, email: s.email })),
      createdAt: new Date().toISOString(),
    })
    await harness.repositories.history.create(
      { id },
      {
        id,
        productSlug,
        emailTitle: '再入荷',
        emailBody: '入荷しました',
        recipientEmails: subscribers.map((s) => s.email),
        sentCount: 2500,
        timestamp: new Date().toISOString(),
        status: 'sent',
        failedRecipients: [],
        deliveryMode: 'email',
        deliveryState: 'queued',
      },
    )
    const clock = fakeClock()
    const budgetMs = 60_000
    const real = harness.mailer()
    // every provider call takes 400 ms of (fake) time
    const callStarts: number[] = []
    const slowMailer: Pick<Mailer, 'sendBatch'> = {
      sendBatch: (emails, key) => {
        callStarts.push(clock.now())
        clock.advance(400)
        return real.sendBatch(emails, key)
      },
    }

    const invocations: { elapsed: number; run: DeliveryRunResult }[] = []
    const pending = [id]
    while (pending.length > 0) {
      expect(invocations.length).toBeLessThan(50)
      const next = pending.shift()!
      const startedAt = clock.now()
      const { deliveryOptions, continued } = options(clock, {
        mailer: slowMailer,
        budgetMs,
        batchAllowanceMs: batchAllowanceFor(5000),
      })
      const run = await runDelivery(next, deliveryOptions)
      invocations.push({ elapsed: clock.now() - startedAt, run })
      pending.push(...continued)
      clock.advance(250) // the platform starting the next invocation
    }

    expect(invocations.length).toBeGreaterThan(3)
    for (const { elapsed } of invocations) expect(elapsed).toBeLessThanOrEqual(budgetMs)
    expect(invocations.slice(0, -1).every(({ run }) => run.state === 'continued')).toBe(true)
    expect(invocations.at(-1)!.run.state).toBe('complete')

    const calls = batchCalls()
    expect(calls).toHaveLength(250)
    expect(calls.every((call) => (call.json as unknown[]).length === 10)).toBe(true)
    const sent = sentTo(calls)
    expect(new Set(sent).size).toBe(2500)
    expect(sent).toEqual(subscribers.map((subscription) => subscription.email))
    expect(new Set(calls.map((call) => call.headers['idempotency-key'])).size).toBe(250)
    // one call a second, start to start: the 400 ms of work count in the second
    const gaps = callStarts.slice(1).map((start, index) => start - callStarts[index])
    expect(gaps.every((gap) => gap >= 1000)).toBe(true)
    const withinRun = gaps.filter((gap) => gap === 1000).length
    expect(withinRun).toBe(250 - invocations.length)
    expect(clock.sleeps.filter((ms) => ms === 600)).toHaveLength(withinRun)

    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history).toMatchObject({ status: 'sent', sentCount: 2498, deliveryState: 'complete' })
    expect(history.failedRecipients.map((failure) => failure.email).sort()).toEqual(
      [...rejected].sort(),
    )
    const sample = [0, 1, 2, 999, 1234, 1235, 2499].map((index) => subscribers[index])
    expect((await statusesOf(sample)).map((s) => s.status)).toEqual([
      'pending',
      'notified',
      'notified',
      'notified',
      'pending',
      'notified',
      'notified',
    ])
  }, 180_000)
})
