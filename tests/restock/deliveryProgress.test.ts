import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import historyModule from '../../netlify/functions/admin-notify-history.js'
import { readBatchProgress } from '../../src/lib/restock/deliveryProgress.js'
import { BATCH_SIZE, runDelivery } from '../../src/lib/restock/deliveryRun.js'
import type { Mailer } from '../../src/lib/notifiers/resendMailer.js'
import type { BatchRecord } from '../../src/lib/storage/deliveryJobStore.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { sentTo, useDeliveryHarness } from './deliveryHarness.js'
import { fakeClock, resendReply } from './restockTestKit.js'

/**
 * The progress record of a delivery: what a poll reads is one blob whatever the
 * delivery's size; the worker counts each settled batch in it once, in batch order, also when two
 * workers race or one dies between a batch and the count; provider calls start a second apart.
 */

const harness = useDeliveryHarness()
const realFetch = globalThis.fetch

beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
})
afterEach(() => {
  globalThis.fetch = realFetch
})

/** A queued delivery of `count` recipients (subscription ids with no record: marking skips them). */
async function queueDirect(count: number, state: 'queued' | 'delivering' = 'queued') {
  const id = `notif_${crypto.randomUUID()}`
  const productSlug = harness.freshProduct()
  const recipients = Array.from({ length: count }, (_, i) => ({
    subscriptionId: `ntf_${id}-${i}`,
    email: `r${i}@example.test`,
  }))
  await harness.jobs.saveJob({
    notificationId: id,
    productSlug,
    emailTitle: '再入荷',
    emailBody: '入荷しました',
    recipients,
    createdAt: new Date().toISOString(),
  })
  const history: NotificationHistory = {
    id,
    productSlug,
    emailTitle: '再入荷',
    emailBody: '入荷しました',
    recipientEmails: recipients.map((r) => r.email),
    sentCount: count,
    timestamp: new Date().toISOString(),
    status: 'sent',
    failedRecipients: [],
    deliveryMode: 'email',
    deliveryState: state,
  }
  await harness.repositories.history.create({ id }, history)
  return { id, productSlug, recipients }
}

/** Batch `batch` of `recipients` settled: every one delivered but those in `failing`. */
function batchOf(
  recipients: { subscriptionId: string; email: string }[],
  batch: number,
  failing: ReadonlySet<string> = new Set(),
): BatchRecord {
  const slice = recipients.slice(batch * BATCH_SIZE, (batch + 1) * BATCH_SIZE)
  return {
    batch,
    deliveredIds: slice.filter((r) => !failing.has(r.email)).map((r) => r.subscriptionId),
    failed: slice
      .filter((r) => failing.has(r.email))
      .map((r) => ({ ...r, error: 'Invalid `to` field' })),
    finishedAt: new Date(Date.UTC(2026, 10, 22, 3, 0, batch)).toISOString(),
  }
}

async function pollHistory(notificationId: string) {
  const context = fakeContext()
  const response = await historyModule(
    jsonRequest('/api/admin/notify/history', { notificationId }, { token: ADMIN_TOKEN }),
    context,
  )
  await context.settled()
  const { status, body } = await readJson(response)
  expect(status).toBe(200)
  return body.notifications[0] as {
    recipients: number
    sentCount: number
    failedCount: number
    pendingCount: number
    state: string
    failedRecipients: unknown[]
  }
}

/** Blob requests one call makes, counted at the server. */
async function requestsOf(call: () => Promise<unknown>): Promise<number> {
  harness.operations.length = 0
  await call()
  return harness.operations.length
}

describe('the cost of watching a delivery', () => {
  it('a poll reads the same few blobs for 100 and for 2,000 recipients', async () => {
    const costs: Record<string, number[]> = {}
    for (const [count, settled] of [
      [100, 4],
      [2000, 150],
    ]) {
      const { id, recipients } = await queueDirect(count, 'delivering')
      const failing = new Set(recipients.filter((_, i) => i % 7 === 0).map((r) => r.email))
      for (let batch = 0; batch < settled; batch++) {
        await harness.jobs.saveBatch(id, batchOf(recipients, batch, failing))
      }
      const counted = await harness.jobs.foldProgress(id, count / BATCH_SIZE)
      expect(counted.foldedBatches).toBe(settled)

      const poll = await pollHistory(id)
      const failed = recipients.slice(0, settled * BATCH_SIZE).filter((r) => failing.has(r.email))
      expect(poll).toMatchObject({
        state: 'delivering',
        recipients: count,
        sentCount: settled * BATCH_SIZE - failed.length,
        failedCount: failed.length,
        pendingCount: count - settled * BATCH_SIZE,
      })
      expect(poll.failedRecipients.length).toBe(Math.min(failed.length, 100))
      const sources = { history: harness.repositories.history, jobs: harness.jobs }
      costs[count] = [
        await requestsOf(() => pollHistory(id)),
        await requestsOf(() => readBatchProgress(id, sources)),
      ]
      const progress = await readBatchProgress(id, sources)
      expect(progress).toMatchObject({ batchCount: count / BATCH_SIZE, settledBatchCount: settled })
    }
    expect(costs[2000]).toEqual(costs[100])
    // history record + progress record; resume: + the job's metadata
    expect(costs[100]).toEqual([2, 3])
  })
})

describe('the progress record stays true', () => {
  it('two workers folding the same batches at once count each batch once', async () => {
    const { id, recipients } = await queueDirect(60, 'delivering')
    for (let batch = 0; batch < 4; batch++) {
      await harness.jobs.saveBatch(id, batchOf(recipients, batch))
    }
    const results = await Promise.all([
      harness.jobs.foldProgress(id, 6),
      harness.jobs.foldProgress(id, 6),
      harness.jobs.foldProgress(id, 6),
    ])
    expect(results.map((r) => r.foldedBatches)).toEqual([4, 4, 4])
    expect(await harness.jobs.getProgress(id)).toMatchObject({ foldedBatches: 4, sentCount: 40 })
  })

  it('a damaged progress record is counted again from the batch records', async () => {
    const { id, recipients } = await queueDirect(30, 'delivering')
    await harness.jobs.saveBatch(id, batchOf(recipients, 0))
    await harness.jobs.saveBatch(id, batchOf(recipients, 1))
    await openStore(RECORDS_STORE, fakeContext()).set(`notif-delivery/${id}/progress`, '{"fold')
    expect(await harness.jobs.getProgress(id)).toBeNull()
    expect(await pollHistory(id)).toMatchObject({ sentCount: 0, pendingCount: 30 })
    expect(await harness.jobs.foldProgress(id, 3)).toMatchObject({
      foldedBatches: 2,
      sentCount: 20,
    })
  })

  it('a gap stops the count until the missing batch is settled, then both are counted', async () => {
    const { id, recipients } = await queueDirect(30, 'delivering')
    await harness.jobs.saveBatch(id, batchOf(recipients, 0))
    await harness.jobs.saveBatch(id, batchOf(recipients, 2))
    expect(await harness.jobs.foldProgress(id, 3)).toMatchObject({
      foldedBatches: 1,
      sentCount: 10,
    })
    await harness.jobs.saveBatch(id, batchOf(recipients, 1))
    expect(await harness.jobs.foldProgress(id, 3)).toMatchObject({
      foldedBatches: 3,
      sentCount: 30,
    })
  })

  it('two workers delivering at once: polls never go back nor pass the recipients; all counted once', async () => {
    const { id } = await queueDirect(120)
    const clock = fakeClock()
    const polls: number[] = []
    let running = true
    const watcher = (async () => {
      while (running) polls.push((await pollHistory(id)).sentCount)
    })()
    const runs = await Promise.all([
      runDelivery(id, harness.options(clock).deliveryOptions),
      runDelivery(id, harness.options(clock).deliveryOptions),
    ])
    running = false
    await watcher
    expect(runs.map((run) => run.state)).toEqual(['complete', 'complete'])
    expect(polls.length).toBeGreaterThan(0)
    for (let i = 1; i < polls.length; i++) expect(polls[i]).toBeGreaterThanOrEqual(polls[i - 1])
    expect(Math.max(...polls)).toBeLessThanOrEqual(120)
    expect(await harness.jobs.getProgress(id)).toMatchObject({ foldedBatches: 12, sentCount: 120 })
    const final = await pollHistory(id)
    expect(final).toMatchObject({ state: 'complete', sentCount: 120, pendingCount: 0 })
    // both may call the provider for a batch, always with its one idempotency key
    const keys = harness.batchCalls().map((call) => call.headers['idempotency-key'])
    expect(new Set(keys).size).toBe(12)
  })

  it('a worker dying between a batch and its count: the next run counts it, once', async () => {
    const { id, recipients } = await queueDirect(30)
    harness.resend.reply = resendReply(new Set([recipients[12].email]))
    // from the moment batch 1's recipients are marked, every Blobs request of this run fails
    const killed = { now: false }
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init)
      const isBlobs = !request.url.startsWith(harness.resend.url)
      if (isBlobs && killed.now) throw new TypeError('fetch failed: the invocation was killed')
      const response = await realFetch(input, init)
      if (
        isBlobs &&
        request.method === 'PUT' &&
        decodeURIComponent(request.url).endsWith(`${id}/notified/1`)
      ) {
        killed.now = true
      }
      return response
    }
    const clock = fakeClock()
    // why: a store keeps the fetch it was opened with; this run's stores see the killing one
    const dying = harness.options(clock, { repositories: openRepositories(fakeContext()) })
    await expect(runDelivery(id, dying.deliveryOptions)).rejects.toThrow()
    globalThis.fetch = realFetch
    expect(await harness.jobs.getProgress(id)).toMatchObject({ foldedBatches: 1, sentCount: 10 })
    expect(await pollHistory(id)).toMatchObject({ sentCount: 10, pendingCount: 20 })

    const run = await runDelivery(id, harness.options(clock).deliveryOptions)
    expect(run.state).toBe('complete')
    expect(await harness.jobs.getProgress(id)).toMatchObject({
      foldedBatches: 3,
      sentCount: 29,
      failedCount: 1,
    })
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history).toMatchObject({ deliveryState: 'complete', sentCount: 29 })
    expect(history.failedRecipients).toEqual([
      { email: recipients[12].email, error: expect.stringContaining('Invalid') },
    ])
    expect(sentTo(harness.batchCalls()).sort()).toEqual(recipients.map((r) => r.email).sort())
  })

  it('keeps the first 100 failures in the progress record and every one in the history', async () => {
    const { id, recipients } = await queueDirect(300)
    const failing = new Set(recipients.filter((_, i) => i % 2 === 0).map((r) => r.email))
    harness.resend.reply = resendReply(failing)
    const run = await runDelivery(id, harness.options(fakeClock()).deliveryOptions)
    expect(run.state).toBe('complete')
    const progress = await harness.jobs.getProgress(id)
    expect(progress).toMatchObject({ sentCount: 150, failedCount: 150 })
    expect(progress!.failed).toHaveLength(100)
    const history = (await harness.repositories.history.get({ id })) as NotificationHistory
    expect(history.failedRecipients.map((f) => f.email).sort()).toEqual([...failing].sort())
  })
})

describe('pacing: one provider call a second, start to start', () => {
  it.each([
    [300, 700],
    [1500, null],
  ])('a batch of %i ms is followed after %s ms of pause', async (workMs, pause) => {
    const { id } = await queueDirect(40)
    const clock = fakeClock()
    const real = harness.mailer()
    const starts: number[] = []
    const mailer: Pick<Mailer, 'sendBatch'> = {
      sendBatch: (emails, key) => {
        starts.push(clock.now())
        clock.advance(workMs)
        return real.sendBatch(emails, key)
      },
    }
    await runDelivery(id, harness.options(clock, { mailer }).deliveryOptions)
    const gaps = starts.slice(1).map((start, i) => start - starts[i])
    expect(gaps).toEqual(Array(3).fill(Math.max(1000, workMs)))
    expect(clock.sleeps).toEqual(pause === null ? [] : Array(3).fill(pause))
  })
})
