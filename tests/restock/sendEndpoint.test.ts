import { describe, expect, it } from 'vitest'
import sendModule, { config as sendConfig } from '../../netlify/functions/admin-notify-send.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest } from '../helpers/requests.js'
import {
  callSendEndpoint,
  freshProduct,
  PRODUCT,
  seedMany,
  seedSubscription,
  SEND_PATH,
  useSendSettings,
  VALID_SEND,
} from './restockTestKit.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

const restock = useSendSettings()

describe('POST /api/admin/notify/send: request checks', () => {
  it('is routed at the documented path', () => {
    expect(sendConfig.path).toBe(SEND_PATH)
  })

  it('answers 401 without a token, with a wrong token and with the other group token', async () => {
    for (const token of [null, 'wrong', PREORDER_TOKEN]) {
      const { status, body } = await callSendEndpoint(VALID_SEND, { token })
      expect(status).toBe(401)
      expect(body).toEqual({ success: false, error: 'Unauthorized' })
    }
  })

  it('checks authentication before the body', async () => {
    const { status } = await callSendEndpoint('{not json', { token: null })
    expect(status).toBe(401)
  })

  it.each([
    [{}, 'productSlug is required'],
    [{ emailTitle: 'x' }, 'productSlug is required'],
    [{ productSlug: '', emailTitle: '', emailBody: '' }, 'productSlug is required'],
    [{ productSlug: '   ', emailTitle: 't', emailBody: 'b' }, 'productSlug is required'],
    [{ productSlug: 42, emailTitle: 't', emailBody: 'b' }, 'productSlug is required'],
    [{ productSlug: PRODUCT }, 'emailTitle is required'],
    [{ productSlug: PRODUCT, emailTitle: ['t'], emailBody: 'b' }, 'emailTitle is required'],
    [{ productSlug: PRODUCT, emailTitle: 't' }, 'emailBody is required'],
    [{ productSlug: PRODUCT, emailTitle: 't', emailBody: null }, 'emailBody is required'],
    [{ productSlug: PRODUCT, emailTitle: 't', emailBody: '\n ' }, 'emailBody is required'],
  ])('%j → 400 %s', async (body, message) => {
    const { status, body: answer } = await callSendEndpoint(body)
    expect(status).toBe(400)
    expect(answer).toEqual({ success: false, error: message })
  })

  it('checks every required field before any length (D6)', async () => {
    const { body } = await callSendEndpoint({ productSlug: 'x'.repeat(101), emailTitle: 't' })
    expect(body.error).toBe('emailBody is required')
  })

  it.each([
    [{ ...VALID_SEND, productSlug: 'p'.repeat(101) }, 'productSlug must be at most 100 characters'],
    [{ ...VALID_SEND, emailTitle: '題'.repeat(201) }, 'emailTitle must be at most 200 characters'],
    [
      { ...VALID_SEND, emailBody: '本'.repeat(20001) },
      'emailBody must be at most 20000 characters',
    ],
  ])('refuses a field past its D6 limit', async (body, message) => {
    const { status, body: answer } = await callSendEndpoint(body)
    expect(status).toBe(400)
    expect(answer.error).toBe(message)
  })

  it('accepts fields exactly at their limits', async () => {
    const productSlug = freshProduct()
    await seedSubscription(restock.repositories, { productSlug })
    const { status } = await callSendEndpoint({
      productSlug,
      emailTitle: '題'.repeat(200),
      emailBody: '本'.repeat(20000),
    })
    expect(status).toBe(200)
  })

  it('answers Invalid JSON body and 405 like every endpoint (D8)', async () => {
    expect((await callSendEndpoint('{oops')).body.error).toBe('Invalid JSON body')
    const response = await sendModule(
      jsonRequest(SEND_PATH, undefined, { token: ADMIN_TOKEN, method: 'GET' }),
      fakeContext(),
    )
    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toContain('POST')
  })
})

describe('POST /api/admin/notify/send: who gets notified', () => {
  it('answers 400 when the product has no subscribers at all', async () => {
    const { status, body } = await callSendEndpoint({ ...VALID_SEND, productSlug: freshProduct() })
    expect(status).toBe(400)
    expect(body).toEqual({ success: false, error: 'No pending subscribers found for this product' })
  })

  it('answers 400 when the only pending subscribers are archived, or all were notified or unsubscribed', async () => {
    const productSlug = freshProduct()
    await seedSubscription(restock.repositories, {
      productSlug,
      isArchived: true,
      archivedAt: new Date().toISOString(),
    })
    await seedSubscription(restock.repositories, {
      productSlug,
      status: 'notified',
      notifiedAt: new Date().toISOString(),
    })
    await seedSubscription(restock.repositories, { productSlug, status: 'unsubscribed' })
    const { status, body } = await callSendEndpoint({ ...VALID_SEND, productSlug })
    expect(status).toBe(400)
    expect(body.error).toBe('No pending subscribers found for this product')
    const history = (await restock.repositories.history.list()).records
    expect(history.filter((record) => record.productSlug === productSlug)).toEqual([])
  })

  it('without an e-mail provider records the send and marks exactly the pending, active subscribers notified', async () => {
    const productSlug = freshProduct()
    const pending = await seedMany(restock.repositories, 3, { productSlug })
    const archived = await seedSubscription(restock.repositories, {
      productSlug,
      isArchived: true,
      archivedAt: '2026-01-02T00:00:00.000Z',
    })
    const unsubscribed = await seedSubscription(restock.repositories, {
      productSlug,
      status: 'unsubscribed',
    })
    const other = await seedSubscription(restock.repositories, { productSlug: freshProduct() })

    const { status, body } = await callSendEndpoint({ ...VALID_SEND, productSlug })

    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      notificationId: expect.stringMatching(/^notif_[0-9a-f-]{36}$/),
      sentCount: 3,
      recipientEmails: pending.map((subscription) => subscription.email),
      timestamp: expect.any(String),
    })
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp)
    for (const subscription of pending) {
      const stored = await restock.repositories.subscriptions.get(subscription)
      expect(stored).toMatchObject({ status: 'notified', notifiedAt: body.timestamp })
      expect(stored?.createdAt).toBe(subscription.createdAt)
    }
    expect(await restock.repositories.subscriptions.get(archived)).toEqual(archived)
    expect(await restock.repositories.subscriptions.get(unsubscribed)).toEqual(unsubscribed)
    expect(await restock.repositories.subscriptions.get(other)).toEqual(other)

    const history = (await restock.repositories.history.get({
      id: body.notificationId,
    })) as NotificationHistory
    expect(history).toEqual({
      id: body.notificationId,
      productSlug,
      emailTitle: VALID_SEND.emailTitle,
      emailBody: VALID_SEND.emailBody,
      recipientEmails: body.recipientEmails,
      sentCount: 3,
      timestamp: body.timestamp,
      status: 'sent',
      failedRecipients: [],
      deliveryMode: 'record-only',
      deliveryState: 'complete',
      completedAt: body.timestamp,
    })
  })

  it('a second send finds nobody pending', async () => {
    const productSlug = freshProduct()
    await seedMany(restock.repositories, 2, { productSlug })
    expect((await callSendEndpoint({ ...VALID_SEND, productSlug })).status).toBe(200)
    const again = await callSendEndpoint({ ...VALID_SEND, productSlug })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('No pending subscribers found for this product')
  })
})
