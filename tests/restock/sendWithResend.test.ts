import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import deliverModule from '../../netlify/functions/notify-deliver-background.js'
import { verifyUnsubscribeToken } from '../../src/lib/compliance/unsubscribeToken.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { fakeContext } from '../helpers/context.js'
import { startRecordingServer, type RecordingServer } from '../../platform/recordingServer.js'
import { jsonRequest } from '../helpers/requests.js'
import {
  callSendEndpoint,
  FROM,
  freshProduct,
  PRODUCT,
  PRODUCT_TITLE,
  resendReply,
  SECRET,
  seedMany,
  seedSubscription,
  startSite,
  ticketIn,
  useSendSettings,
  VALID_SEND,
} from './restockTestKit.js'

const restock = useSendSettings()

describe('POST /api/admin/notify/send with Resend configured', () => {
  let resend: RecordingServer
  let site: Awaited<ReturnType<typeof startSite>>

  beforeAll(async () => {
    resend = await startRecordingServer()
    site = await startSite(deliverModule)
  })

  afterAll(async () => {
    await site.close()
    await resend.close()
  })

  beforeEach(() => {
    process.env.RESEND_API_KEY = 're_test_key'
    process.env.RESEND_FROM_EMAIL = FROM
    process.env.RESEND_BASE_URL = resend.url
    process.env.SITE_URL = 'https://shop.example.test'
    resend.requests.length = 0
    site.received.length = 0
    resend.reply = resendReply()
  })

  it('refuses with 503 and changes nothing when UNSUBSCRIBE_SECRET is unset', async () => {
    delete process.env.UNSUBSCRIBE_SECRET
    const productSlug = freshProduct()
    const [subscription] = await seedMany(restock.repositories, 1, { productSlug })
    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: site.url },
    )
    expect(status).toBe(503)
    expect(body.error).toBe('Email delivery is not configured: UNSUBSCRIBE_SECRET is not set')
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual(subscription)
    expect(site.received).toEqual([])
  })

  it('queues the delivery, answers at once, and the background function delivers and marks everyone', async () => {
    const productSlug = PRODUCT
    const stale = (await restock.repositories.subscriptions.listProduct(PRODUCT)).records.filter(
      (subscription) => subscription.status === 'pending',
    )
    expect(stale).toEqual([])
    const rejected = await seedSubscription(restock.repositories, { email: 'bounce@example.test' })
    const accepted = await seedMany(restock.repositories, 3, { productSlug })
    resend.reply = resendReply(new Set(['bounce@example.test']))

    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: site.url },
    )

    expect(status).toBe(200)
    expect(body.sentCount).toBe(4)
    expect(body.recipientEmails).toEqual([rejected.email, ...accepted.map((s) => s.email)])
    expect(site.received).toHaveLength(1)
    expect(ticketIn(site.received[0].authorization)).toMatchObject({
      ok: true,
      notificationId: body.notificationId,
    })
    expect(JSON.parse(site.received[0].body)).toEqual({ notificationId: body.notificationId })

    const [workerResponse] = await site.idle()
    expect(workerResponse.status).toBe(200)
    expect(resend.requests).toHaveLength(1)
    const call = resend.requests[0]
    expect(call.path).toBe('/emails/batch')
    expect(call.headers['x-batch-validation']).toBe('permissive')
    expect(call.headers['idempotency-key']).toBe(`restock/${body.notificationId}/batch-0`)
    const emails = call.json as any[]
    expect(emails.map((email) => email.to)).toEqual(body.recipientEmails)
    for (const email of emails) {
      expect(email.from).toBe(FROM)
      expect(email.subject).toBe(VALID_SEND.emailTitle)
      expect(email.text).toContain(VALID_SEND.emailBody)
      // the product link: the counted click redirect to the product page (docs/dashboard.md)
      expect(email.text).toContain('https://shop.example.test/api/r?n=')
      expect(email.text).toContain(`u=${PRODUCT}`)
      expect(email.text).toContain(PRODUCT_TITLE)
      const link = email.headers['List-Unsubscribe'].slice(1, -1)
      expect(link.startsWith('https://shop.example.test/api/notify-unsubscribe?token=')).toBe(true)
      expect(email.text).toContain(link)
      expect(email.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
    }

    expect(await restock.repositories.subscriptions.get(rejected)).toEqual(rejected)
    for (const subscription of accepted) {
      const stored = await restock.repositories.subscriptions.get(subscription)
      expect(stored?.status).toBe('notified')
      expect(stored?.notifiedAt).toEqual(expect.any(String))
    }
    const token = new URL(emails[1].headers['List-Unsubscribe'].slice(1, -1)).searchParams.get(
      'token',
    )
    expect(verifyUnsubscribeToken(token, SECRET)).toEqual({
      ok: true,
      ref: { id: accepted[0].id, productSlug },
    })

    const history = (await restock.repositories.history.get({
      id: body.notificationId,
    })) as NotificationHistory
    expect(history).toMatchObject({
      status: 'sent',
      sentCount: 3,
      recipientEmails: body.recipientEmails,
      failedRecipients: [
        { email: 'bounce@example.test', error: 'Invalid `to` field: bounce@example.test' },
      ],
      deliveryMode: 'email',
      deliveryState: 'complete',
    })
  })

  it('answers 503 and records a failed history when the delivery function cannot be started', async () => {
    const productSlug = freshProduct()
    const [subscription] = await seedMany(restock.repositories, 2, { productSlug })
    // the request's own origin is where the background function lives; nothing listens here
    const { status, body } = await callSendEndpoint(
      { ...VALID_SEND, productSlug },
      { base: 'http://127.0.0.1:9' },
    )
    expect(status).toBe(503)
    expect(body.error).toBe('Email delivery could not be started; no e-mail was sent')
    expect(await restock.repositories.subscriptions.get(subscription)).toEqual(subscription)
    const history = (await restock.repositories.history.list()).records.find(
      (record) => record.productSlug === productSlug,
    ) as NotificationHistory
    expect(history).toMatchObject({
      status: 'failed',
      sentCount: 0,
      deliveryState: 'complete',
      failedRecipients: [
        { email: subscription.email, error: 'Delivery could not be started' },
        expect.any(Object),
      ],
    })
    expect(resend.requests).toEqual([])
  })

  it('the background function refuses a request without a delivery ticket', async () => {
    const context = fakeContext()
    const response = await deliverModule(
      jsonRequest('/.netlify/functions/notify-deliver-background', { notificationId: 'notif_x' }),
      context,
    )
    expect(response.status).toBe(401)
  })

  it('delivers a repeated send (double click, retried request) once: same notification, same keys', async () => {
    const productSlug = freshProduct('repeat')
    const subscribers = await seedMany(restock.repositories, 12, { productSlug })
    const request = { ...VALID_SEND, productSlug }

    const [first, second] = await Promise.all([
      callSendEndpoint(request, { base: site.url }),
      callSendEndpoint(request, { base: site.url }),
    ])
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body.notificationId).toBe(first.body.notificationId)
    expect(first.body.notificationId).toMatch(
      /^notif_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    await site.idle()

    // why: Resend sends an idempotent request once; what matters is that every recipient only
    // ever appears under one key, whatever number of identical calls carried it
    const keysByRecipient = new Map<string, Set<string>>()
    for (const call of resend.requests) {
      for (const email of call.json as { to: string | string[] }[]) {
        const recipient = [email.to].flat()[0]
        const keys = keysByRecipient.get(recipient) ?? new Set<string>()
        keys.add(String(call.headers['idempotency-key']))
        keysByRecipient.set(recipient, keys)
      }
    }
    expect(keysByRecipient.size).toBe(12)
    for (const keys of keysByRecipient.values()) expect(keys.size).toBe(1)
    for (const subscription of subscribers) {
      const stored = await restock.repositories.subscriptions.get(subscription)
      expect(stored?.status).toBe('notified')
    }

    const callsBefore = resend.requests.length
    const third = await callSendEndpoint(request, { base: site.url })
    expect(third.status).toBe(400)
    expect(third.body.error).toBe('No pending subscribers found for this product')
    expect(resend.requests.length).toBe(callsBefore)
  })

  it('answers a repeat of a send still being delivered with that notification; later sends are new ones', async () => {
    let firstId = ''
    const productSlug = freshProduct('repeat-running')
    await seedMany(restock.repositories, 3, { productSlug })
    const request = { ...VALID_SEND, productSlug }
    // why: the first batch call hangs until its timeout, so the repeat surely meets the delivery
    // still running; the retry after the pause is then answered
    process.env.OUTBOUND_TIMEOUT_MS = '300'
    resend.reply = () => 'hang'
    try {
      const first = await callSendEndpoint(request, { base: site.url })
      const started = site.received.length
      const again = await callSendEndpoint(request, { base: site.url })
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(site.received.length).toBe(started)
      resend.reply = resendReply()
      await site.idle()
      firstId = first.body.notificationId
    } finally {
      delete process.env.OUTBOUND_TIMEOUT_MS
    }

    const later = await seedMany(restock.repositories, 1, { productSlug })
    const identicalLater = await callSendEndpoint(request, { base: site.url })
    expect(identicalLater.status).toBe(200)
    expect(identicalLater.body.notificationId).not.toBe(firstId)
    expect(identicalLater.body.recipientEmails).toEqual([later[0].email])
    await site.idle()

    const other = await seedMany(restock.repositories, 1, { productSlug })
    const changed = await callSendEndpoint(
      { ...request, emailBody: '別の本文です。' },
      { base: site.url },
    )
    expect(changed.status).toBe(200)
    expect(changed.body.notificationId).not.toBe(firstId)
    expect(changed.body.notificationId).not.toBe(identicalLater.body.notificationId)
    expect(changed.body.recipientEmails).toEqual([other[0].email])
    await site.idle()
  })
})
