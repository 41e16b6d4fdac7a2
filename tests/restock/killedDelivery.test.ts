import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest } from '../helpers/requests.js'
import { useDeliveryHarness } from './deliveryHarness.js'
import { issueDeliveryTicket } from '../../src/lib/restock/deliveryTicket.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { FROM, SECRET, seedMany } from './restockTestKit.js'

/**
 * The background delivery function killed at one controlled point: right after a batch's record
 * is written, before its recipients are marked `notified`. From then on every Blobs request of the
 * dying invocation fails, as if the process had gone. A later run (the resume or the scheduled
 * sweep start one) must leave nobody `pending` whose e-mail went out, and send nothing twice.
 */

const harness = useDeliveryHarness()
const realFetch = globalThis.fetch

/** Kills Blobs access once the PUT of `blobKey` has succeeded. */
function killAfterWriting(blobKey: string) {
  const state = { killed: false }
  globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = decodeURIComponent(request.url)
    const isBlobs = !url.startsWith(harness.resend.url)
    if (isBlobs && state.killed) throw new TypeError('fetch failed: the invocation was killed')
    const response = await realFetch(input, init)
    if (isBlobs && request.method === 'PUT' && url.endsWith(blobKey) && response.ok) {
      state.killed = true
    }
    return response
  }
  return state
}

async function runBackground(notificationId: string): Promise<number> {
  const context = fakeContext()
  const response = await deliverModule(
    jsonRequest(
      '/.netlify/functions/notify-deliver-background',
      { notificationId },
      // why: a run is admitted only with a ticket of this deploy, as the send would issue it
      { token: issueDeliveryTicket(notificationId, SECRET, Date.now()) },
    ),
    context,
  )
  await context.settled()
  return response.status
}

beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.RESEND_API_KEY = 're_test'
  process.env.RESEND_FROM_EMAIL = FROM
})
afterEach(() => {
  globalThis.fetch = realFetch
})

describe('a delivery killed between recording a batch and marking its recipients', () => {
  it('a middle batch: the next run marks that batch notified and sends nothing twice', async () => {
    const productSlug = harness.freshProduct()
    const subscribers = await seedMany(harness.repositories, 30, { productSlug })
    const id = await harness.queue(productSlug)

    const kill = killAfterWriting(`notif-delivery/${id}/batches/1`)
    expect(await runBackground(id)).toBe(500)
    expect(kill.killed).toBe(true)
    globalThis.fetch = realFetch
    const afterKill = await harness.statusesOf(subscribers)
    expect(afterKill.slice(10, 20).map((s) => s.status)).toEqual(Array(10).fill('pending'))

    expect(await runBackground(id)).toBe(200)

    const statuses = (await harness.statusesOf(subscribers)).map((s) => s.status)
    expect(statuses).toEqual(Array(30).fill('notified'))
    const sent = harness.batchCalls().flatMap((call) => call.json as { to: string }[])
    expect(sent.map((email) => email.to).sort()).toEqual(subscribers.map((s) => s.email).sort())
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history).toMatchObject({ deliveryState: 'complete', sentCount: 30 })
  })

  it('the last batch: completion marks that batch notified', async () => {
    const productSlug = harness.freshProduct()
    const subscribers = await seedMany(harness.repositories, 20, { productSlug })
    const id = await harness.queue(productSlug)

    killAfterWriting(`notif-delivery/${id}/batches/1`)
    expect(await runBackground(id)).toBe(500)
    globalThis.fetch = realFetch

    expect(await runBackground(id)).toBe(200)

    const statuses = (await harness.statusesOf(subscribers)).map((s) => s.status)
    expect(statuses).toEqual(Array(20).fill('notified'))
    expect(harness.batchCalls()).toHaveLength(2)
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history).toMatchObject({ deliveryState: 'complete', sentCount: 20 })
  })
})
