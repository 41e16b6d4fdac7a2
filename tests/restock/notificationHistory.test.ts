import { describe, expect, it } from 'vitest'
import historyModule, {
  config as historyConfig,
} from '../../netlify/functions/admin-notify-history.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { callSendEndpoint, freshProduct, seedMany, useSendSettings } from './restockTestKit.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

const restock = useSendSettings()
const PATH = '/api/admin/notify/history'

async function callHistory(body: unknown, token: string | null = ADMIN_TOKEN) {
  const context = fakeContext()
  const response = await historyModule(jsonRequest(PATH, body, { token }), context)
  await context.settled()
  return readJson(response)
}

let sequence = 0

/** A stored history record of `product`, each one a second later than the one before. */
async function seedHistory(
  product: string,
  overrides: Partial<NotificationHistory> = {},
): Promise<NotificationHistory> {
  sequence += 1
  const record: NotificationHistory = {
    id: `notif_history-test-${crypto.randomUUID()}`,
    productSlug: product,
    emailTitle: `お知らせ ${sequence}`,
    emailBody: '入荷しました。',
    recipientEmails: ['a@example.test', 'b@example.test', 'c@example.test'],
    sentCount: 3,
    timestamp: new Date(Date.UTC(2026, 5, 1) + sequence * 1000).toISOString(),
    status: 'sent',
    failedRecipients: [],
    deliveryMode: 'email',
    deliveryState: 'complete',
    completedAt: new Date(Date.UTC(2026, 5, 1) + sequence * 1000 + 500).toISOString(),
    ...overrides,
  }
  await restock.repositories.history.create(record, record)
  return record
}

describe('POST /api/admin/notify/history', () => {
  it('is routed at the documented path and belongs to the ADMIN token group', async () => {
    expect(historyConfig.path).toBe(PATH)
    for (const token of [null, 'wrong', PREORDER_TOKEN]) {
      const { status, body } = await callHistory({}, token)
      expect(status).toBe(401)
      expect(body).toEqual({ success: false, error: 'Unauthorized' })
    }
  })

  it.each([
    [{ page: '2' }, 'page must be a positive integer'],
    [{ page: 0 }, 'page must be a positive integer'],
    [{ pageSize: 101 }, 'pageSize must be between 1 and 100'],
    [{ productSlug: 3 }, 'productSlug must be a string'],
    [{ notificationId: ['x'] }, 'notificationId must be a string'],
  ])('%j → 400 %s', async (body, error) => {
    const { status, body: answer } = await callHistory(body)
    expect(status).toBe(400)
    expect(answer).toEqual({ success: false, error })
  })

  it('lists one product’s notices newest first, paged, with their counts', async () => {
    const product = freshProduct('history')
    const older = await seedHistory(product, {
      sentCount: 2,
      failedRecipients: [{ email: 'c@example.test', error: 'Invalid `to` field' }],
    })
    const newer = await seedHistory(product)
    await seedHistory(freshProduct('other'))

    const { status, body } = await callHistory({ productSlug: product, pageSize: 1 })
    expect(status).toBe(200)
    expect(body).toMatchObject({ success: true, total: 2, page: 1, pageSize: 1, totalPages: 2 })
    expect(body.notifications).toEqual([
      {
        id: newer.id,
        productSlug: product,
        title: newer.emailTitle,
        timestamp: newer.timestamp,
        completedAt: newer.completedAt,
        recipients: 3,
        sentCount: 3,
        failedCount: 0,
        pendingCount: 0,
        state: 'complete',
        status: 'sent',
        deliveryMode: 'email',
      },
    ])
    const second = await callHistory({ productSlug: product, pageSize: 1, page: 2 })
    expect(second.body.notifications.map((n: { id: string }) => n.id)).toEqual([older.id])
    expect(second.body.notifications[0]).toMatchObject({ sentCount: 2, failedCount: 1 })
    expect(second.body.notifications[0].failedRecipients).toBeUndefined()
  })

  it('shows a running delivery’s progress from its progress record', async () => {
    const product = freshProduct('running')
    const recipientEmails = Array.from({ length: 25 }, (_, i) => `r${i}@example.test`)
    const running = await seedHistory(product, {
      recipientEmails,
      sentCount: 25,
      deliveryState: 'delivering',
      completedAt: undefined,
    })
    const journal = restock.repositories.deliveries
    await journal.saveBatch(running.id, {
      batch: 0,
      deliveredIds: Array.from({ length: 9 }, (_, i) => `ntf_${i}`),
      failed: [{ subscriptionId: 'ntf_9', email: 'r9@example.test', error: 'Invalid `to` field' }],
      finishedAt: new Date().toISOString(),
    })
    // the worker counts each batch it settles in the delivery's progress record
    await journal.foldProgress(running.id, 3)

    const listed = await callHistory({ productSlug: product })
    expect(listed.body.notifications[0]).toMatchObject({
      state: 'delivering',
      recipients: 25,
      sentCount: 9,
      failedCount: 1,
      pendingCount: 15,
      completedAt: null,
    })

    const one = await callHistory({ notificationId: running.id })
    expect(one.body).toMatchObject({ success: true, total: 1, totalPages: 1 })
    expect(one.body.notifications[0]).toMatchObject({
      id: running.id,
      pendingCount: 15,
      failedRecipients: [{ email: 'r9@example.test', error: 'Invalid `to` field' }],
    })
  })

  it('answers an empty page for an unknown notification or one of another product', async () => {
    const record = await seedHistory(freshProduct('one'))
    const unknown = await callHistory({ notificationId: 'notif_does-not-exist' })
    expect(unknown.body).toMatchObject({ success: true, notifications: [], total: 0 })
    const otherProduct = await callHistory({ notificationId: record.id, productSlug: 'x' })
    expect(otherProduct.body.notifications).toEqual([])
  })

  it('shows a notice sent without an e-mail provider as complete, record-only', async () => {
    const product = freshProduct('recorded')
    await seedMany(restock.repositories, 2, { productSlug: product })
    const sent = await callSendEndpoint({ productSlug: product, emailTitle: 't', emailBody: 'b' })
    expect(sent.status).toBe(200)
    const { body } = await callHistory({ notificationId: sent.body.notificationId })
    expect(body.notifications[0]).toMatchObject({
      state: 'complete',
      deliveryMode: 'record-only',
      recipients: 2,
      sentCount: 2,
      failedCount: 0,
      pendingCount: 0,
      failedRecipients: [],
    })
  })
})
