import { describe, expect, it } from 'vitest'
import { BATCH_DELAY_MS, runDelivery } from '../../src/lib/restock/deliveryRun.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import unsubscribe from '../../netlify/functions/notify-unsubscribe.js'
import {
  createUnsubscribeToken,
  verifyUnsubscribeToken,
} from '../../src/lib/compliance/unsubscribeToken.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { fakeContext } from '../helpers/context.js'
import { sentTo, useDeliveryHarness } from './deliveryHarness.js'
import { fakeClock, resendReply, SECRET, seedMany } from './restockTestKit.js'

const harness = useDeliveryHarness()
const { batchCalls, freshProduct, options, queue, statusesOf } = harness

describe('restock delivery', () => {
  it('sends batches of 10 with a 1 s pause before every call but the first', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 25, { productSlug })
    const id = await queue(productSlug)
    const clock = fakeClock()

    const run = await runDelivery(id, options(clock).deliveryOptions)

    expect(run.state).toBe('complete')
    const calls = batchCalls()
    expect(calls.map((call) => (call.json as unknown[]).length)).toEqual([10, 10, 5])
    expect(sentTo(calls)).toEqual(subscribers.map((subscription) => subscription.email))
    expect(clock.sleeps).toEqual([BATCH_DELAY_MS, BATCH_DELAY_MS])
    expect(BATCH_DELAY_MS).toBe(1000)
    expect(calls.map((call) => call.headers['idempotency-key'])).toEqual([
      `restock/${id}/batch-0`,
      `restock/${id}/batch-1`,
      `restock/${id}/batch-2`,
    ])
    for (const call of calls) {
      expect(call.headers.authorization).toBe('Bearer re_test')
      expect(call.headers['x-batch-validation']).toBe('permissive')
    }
    const stored = await statusesOf(subscribers)
    expect(stored.every((subscription) => subscription.status === 'notified')).toBe(true)
    // each batch is stamped when it settled: batch 0 at the start, batch 2 after two pauses
    expect(stored[0].notifiedAt).toBe(new Date(clock.now() - 2 * BATCH_DELAY_MS).toISOString())
    expect(stored[24].notifiedAt).toBe(new Date(clock.now()).toISOString())
  })

  it('puts an unsubscribe link and the one-click headers on every e-mail, signed for its own recipient', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 12, { productSlug })
    const id = await queue(productSlug)
    await runDelivery(id, options(fakeClock()).deliveryOptions)

    const emails = batchCalls().flatMap((call) => call.json as any[])
    expect(emails).toHaveLength(12)
    emails.forEach((email, index) => {
      const header = email.headers['List-Unsubscribe'] as string
      expect(header).toMatch(/^<https:\/\/shop\.example\.test\/api\/notify-unsubscribe\?token=.+>$/)
      expect(email.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
      const link = header.slice(1, -1)
      expect(email.text).toContain(`配信停止: ${link}`)
      expect(email.html).toContain(`href="${link}"`)
      const token = new URL(link).searchParams.get('token')
      expect(verifyUnsubscribeToken(token, SECRET)).toEqual({
        ok: true,
        ref: { id: subscribers[index].id, productSlug },
      })
      expect(email.subject).toBe('再入荷しました')
      expect(email.html).toContain('お待たせしました。<br>')
    })
  })

  it('records failures per recipient, leaves them pending and notifies everyone else', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 23, { productSlug })
    const rejected = new Set([subscribers[3].email, subscribers[17].email])
    harness.resend.reply = resendReply(rejected)
    const id = await queue(productSlug)

    const run = await runDelivery(id, options(fakeClock()).deliveryOptions)

    expect(run.state).toBe('complete')
    expect(batchCalls()).toHaveLength(3)
    const stored = await statusesOf(subscribers)
    stored.forEach((subscription) => {
      const expected = rejected.has(subscription.email) ? 'pending' : 'notified'
      expect(subscription.status).toBe(expected)
      if (expected === 'pending') expect(subscription.notifiedAt).toBeNull()
    })
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history).toMatchObject({
      status: 'sent',
      sentCount: 21,
      deliveryState: 'complete',
      failedRecipients: [
        { email: subscribers[3].email, error: `Invalid \`to\` field: ${subscribers[3].email}` },
        { email: subscribers[17].email, error: `Invalid \`to\` field: ${subscribers[17].email}` },
      ],
    })
    expect(history.recipientEmails).toHaveLength(23)
  })

  it('marks the history failed when nobody received it', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 3, { productSlug })
    harness.resend.reply = () => ({
      status: 403,
      body: { statusCode: 403, name: 'validation_error', message: 'The domain is not verified' },
    })
    const id = await queue(productSlug)

    await runDelivery(id, options(fakeClock()).deliveryOptions)

    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history.status).toBe('failed')
    expect(history.sentCount).toBe(0)
    expect(history.failedRecipients).toEqual(
      subscribers.map((subscription) => ({
        email: subscription.email,
        error: 'The domain is not verified (HTTP 403)',
      })),
    )
    expect((await statusesOf(subscribers)).map((s) => s.status)).toEqual([
      'pending',
      'pending',
      'pending',
    ])
    expect(batchCalls()).toHaveLength(1) // a 403 is not worth a retry
  })

  it('retries a rate-limited call once after the pause, with the same key and content', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 4, { productSlug })
    let calls = 0
    harness.resend.reply = (request) => {
      calls += 1
      if (calls === 1) {
        return {
          status: 429,
          body: { statusCode: 429, name: 'rate_limit_exceeded', message: 'Too many requests' },
        }
      }
      return resendReply()(request)
    }
    const id = await queue(productSlug)
    const clock = fakeClock()

    await runDelivery(id, options(clock).deliveryOptions)

    const [first, second] = batchCalls()
    expect(second.headers['idempotency-key']).toBe(first.headers['idempotency-key'])
    expect(second.json).toEqual(first.json)
    expect(clock.sleeps).toEqual([BATCH_DELAY_MS])
    expect((await statusesOf(subscribers)).every((s) => s.status === 'notified')).toBe(true)
  })

  it('a hanging provider fails only the batch it hangs on; the rest is delivered', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 15, { productSlug })
    const hangFor = subscribers[12].email
    harness.resend.reply = (request) =>
      sentTo([request]).includes(hangFor) ? 'hang' : resendReply()(request)
    const id = await queue(productSlug)

    await runDelivery(id, options(fakeClock()).deliveryOptions)

    expect(batchCalls()).toHaveLength(3) // batch 0, batch 1, and one retry of batch 1
    const stored = await statusesOf(subscribers)
    expect(stored.slice(0, 10).every((s) => s.status === 'notified')).toBe(true)
    expect(stored.slice(10).every((s) => s.status === 'pending')).toBe(true)
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history.sentCount).toBe(10)
    expect(history.failedRecipients.map((failure) => failure.email)).toEqual(
      subscribers.slice(10).map((s) => s.email),
    )
    expect(history.failedRecipients[0].error).toMatch(/Unable to fetch data/)
  })

  it('a repeated delivery sends nothing that was settled and reuses the keys of what it resends', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 25, { productSlug })
    const id = await queue(productSlug)
    await runDelivery(id, options(fakeClock()).deliveryOptions)
    const firstRun = batchCalls().map((call) => ({
      key: call.headers['idempotency-key'],
      body: call.json,
    }))

    // a delivery that completed is not sent again, whoever starts it
    harness.resend.requests.length = 0
    expect((await runDelivery(id, options(fakeClock()).deliveryOptions)).state).toBe(
      'already-complete',
    )
    expect(batchCalls()).toEqual([])

    // an invocation that crashed after the provider accepted batch 1 but before recording it
    const store = openStore(RECORDS_STORE, fakeContext())
    await store.delete(`notif-delivery/${id}/batches/1`)
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    await harness.repositories.history.update({ id }, () => ({
      ...history,
      deliveryState: 'delivering',
    }))
    const clock = fakeClock()
    const run = await runDelivery(id, options(clock).deliveryOptions)

    expect(run.state).toBe('complete')
    const resent = batchCalls()
    expect(resent).toHaveLength(1)
    expect(resent[0].headers['idempotency-key']).toBe(firstRun[1].key)
    expect(resent[0].json).toEqual(firstRun[1].body)
    expect(clock.sleeps).toEqual([BATCH_DELAY_MS]) // a continuation still keeps the pause
    const final = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(final.sentCount).toBe(25)
    expect((await statusesOf(subscribers)).every((s) => s.status === 'notified')).toBe(true)
  })

  it('does not notify or overwrite someone who unsubscribed while the delivery ran', async () => {
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 2, { productSlug })
    const id = await queue(productSlug)
    await harness.repositories.subscriptions.update(subscribers[1], (s) => ({
      ...s,
      status: 'unsubscribed',
    }))
    await runDelivery(id, options(fakeClock()).deliveryOptions)
    const stored = await statusesOf(subscribers)
    expect(stored.map((s) => s.status)).toEqual(['notified', 'unsubscribed'])
  })

  it('leaves every subscriber who unsubscribes during the delivery unsubscribed (20 races)', async () => {
    process.env.UNSUBSCRIBE_SECRET = SECRET
    const productSlug = freshProduct()
    const subscribers = await seedMany(harness.repositories, 20, { productSlug })
    const id = await queue(productSlug)
    const unsubscribes = subscribers.map(async (subscriber, index) => {
      // why: spread over the delivery's batches, so some land before and some after each mark
      await new Promise((resolve) => setTimeout(resolve, index * 2))
      const token = createUnsubscribeToken(subscriber, SECRET)
      const response = await unsubscribe(
        new Request(`https://shop.example.test/api/notify-unsubscribe?token=${token}`, {
          method: 'POST',
          headers: { Accept: 'application/json' },
        }),
        fakeContext(),
      )
      return response.status
    })
    const [run, ...statuses] = await Promise.all([
      runDelivery(id, options(fakeClock()).deliveryOptions),
      ...unsubscribes,
    ])
    expect(run.state).toBe('complete')
    expect(statuses).toEqual(Array(20).fill(200))
    const stored = await statusesOf(subscribers)
    expect(stored.map((s) => s.status)).toEqual(Array(20).fill('unsubscribed'))
  })

  it('reports a missing notification without sending anything', async () => {
    const run = await runDelivery('notif_missing', options(fakeClock()).deliveryOptions)
    expect(run).toEqual({ state: 'missing' })
    expect(harness.resend.requests).toEqual([])
  })
})
