import { beforeEach, describe, expect, it } from 'vitest'
import webhookModule from '../../netlify/functions/resend-webhook.js'
import { fakeContext } from '../helpers/context.js'
import { readJson } from '../helpers/requests.js'
import { bounceEvent, signedWebhook, WEBHOOK_SECRET, WEBHOOK_URL } from './complianceTestKit.js'
import { freshProduct, seedSubscription, useSendSettings } from '../restock/restockTestKit.js'

const restock = useSendSettings()
const SECRET = WEBHOOK_SECRET
const signedRequest = (event: unknown, options?: Parameters<typeof signedWebhook>[2]) =>
  signedWebhook(WEBHOOK_URL, event, options)

async function call(request: Request) {
  return readJson(await webhookModule(request, fakeContext()))
}

describe('POST /api/resend-webhook', () => {
  beforeEach(() => {
    process.env.RESEND_WEBHOOK_SECRET = SECRET
  })

  it('suppresses a hard-bounced address and ends its pending subscriptions', async () => {
    const productSlug = freshProduct()
    const email = `bounce-${crypto.randomUUID().slice(0, 8)}@example.test`
    const subscription = await seedSubscription(restock.repositories, { email, productSlug })
    const { status, body } = await call(signedRequest(bounceEvent(email)))
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      handled: 'suppressed',
      reason: 'bounce',
      unsubscribed: 1,
    })
    const stored = await restock.repositories.subscriptions.get(subscription)
    expect(stored?.status).toBe('unsubscribed')
    expect(stored?.unsubscribedAt).toBe('2026-11-22T03:00:00.000Z')
    const { suppressions } = restock.repositories
    expect(await suppressions.forAddress(email.toUpperCase())).toMatchObject({
      email,
      reason: 'bounce',
    })
  })

  it('suppresses on a complaint, ignores a soft bounce and other events', async () => {
    const email = `soft-${crypto.randomUUID().slice(0, 8)}@example.test`
    expect((await call(signedRequest(bounceEvent(email, 'Transient')))).body.handled).toBe(
      'ignored',
    )
    const { suppressions } = restock.repositories
    expect(await suppressions.forAddress(email)).toBeNull()
    const complaint = {
      type: 'email.complained',
      created_at: '2026-11-22T04:00:00.000Z',
      data: { to: [email] },
    }
    expect((await call(signedRequest(complaint))).body).toMatchObject({ reason: 'complaint' })
    expect((await suppressions.forAddress(email))?.reason).toBe('complaint')
  })

  it('answers 401 and changes nothing for a bad signature', async () => {
    const email = `forged-${crypto.randomUUID().slice(0, 8)}@example.test`
    const other = `whsec_${Buffer.from('another-secret-of-enough-length!!').toString('base64')}`
    const { status, body } = await call(signedRequest(bounceEvent(email), { secret: other }))
    expect(status).toBe(401)
    expect(body).toEqual({ success: false, error: 'Invalid webhook signature' })
    const tampered = signedRequest(bounceEvent('someone@example.test'))
    const forged = new Request(tampered.url, {
      method: 'POST',
      headers: tampered.headers,
      body: JSON.stringify(bounceEvent(email)),
    })
    expect((await call(forged)).status).toBe(401)
    const unsigned = new Request(tampered.url, { method: 'POST', body: '{}' })
    expect((await call(unsigned)).status).toBe(401)
    const { suppressions } = restock.repositories
    expect(await suppressions.forAddress(email)).toBeNull()
  })

  it('answers 401 for a stale signature (more than 5 minutes old) and one from the future', async () => {
    const email = `stale-${crypto.randomUUID().slice(0, 8)}@example.test`
    const stale = await call(
      signedRequest(bounceEvent(email), { at: new Date(Date.now() - 6 * 60_000) }),
    )
    expect(stale.status).toBe(401)
    const future = await call(
      signedRequest(bounceEvent(email), { at: new Date(Date.now() + 6 * 60_000) }),
    )
    expect(future.status).toBe(401)
    const { suppressions } = restock.repositories
    expect(await suppressions.forAddress(email)).toBeNull()
  })

  it('handles a replayed message once', async () => {
    const email = `replay-${crypto.randomUUID().slice(0, 8)}@example.test`
    const id = `msg_${crypto.randomUUID()}`
    const first = await call(signedRequest(bounceEvent(email), { id }))
    expect(first.body.handled).toBe('suppressed')
    const { suppressions } = restock.repositories
    await suppressions.remove({ emailHash: (await suppressions.forAddress(email))!.emailHash })
    const replay = await call(signedRequest(bounceEvent(email), { id }))
    expect(replay).toMatchObject({ status: 200, body: { success: true, handled: 'duplicate' } })
    expect(await suppressions.forAddress(email)).toBeNull()
  })

  it('answers 503 when RESEND_WEBHOOK_SECRET is unset', async () => {
    delete process.env.RESEND_WEBHOOK_SECRET
    const { status, body } = await call(signedRequest(bounceEvent('x@example.test')))
    expect(status).toBe(503)
    expect(body.error).toBe('Webhook is not configured')
  })
})
