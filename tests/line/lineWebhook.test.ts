import { describe, expect, it } from 'vitest'
import lineWebhook from '../../netlify/functions/line-webhook.js'
import { lineWebhookAnswer } from '../../src/build/api/responseSchemas.js'
import { lineSignature } from '../../src/lib/signing/lineSignature.js'
import { openAuditRepository } from '../../src/lib/storage/auditRepository.js'
import { lineUserHash } from '../../src/lib/storage/lineContacts.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import {
  MESSAGING_SECRET,
  PRODUCT,
  VARIANT_PRODUCT,
  newLineUserId,
  useLineEnvironment,
} from './lineTestKit.js'

/**
 * POST /api/line-webhook on a real local Blobs server: the signature (bad, missing, good), an
 * unfollow ending the user's LINE sign-ups, a follow marking them reachable again, and every
 * other event answered and ignored.
 */

const world = useLineEnvironment()

function body(type: string, userId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    destination: 'U00000000000000000000000000000000',
    events: [
      {
        type,
        mode: 'active',
        timestamp: 1764000000000,
        source: { type: 'user', userId },
        webhookEventId: crypto.randomUUID(),
        deliveryContext: { isRedelivery: false },
        ...extra,
      },
    ],
  })
}

async function post(
  rawBody: string,
  signature: string | null = lineSignature(MESSAGING_SECRET, rawBody),
) {
  const headers: Record<string, string> = {}
  if (signature !== null) headers['X-Line-Signature'] = signature
  const context = world.context()
  const response = await lineWebhook(
    jsonRequest('/api/line-webhook', rawBody, { token: null, headers }),
    context,
  )
  await context.settled()
  const answer = await readJson(response)
  if (answer.status === 200) lineWebhookAnswer.parse(answer.body)
  return answer
}

describe('POST /api/line-webhook', () => {
  it('refuses a missing or wrong signature with 401 and changes nothing', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    const raw = body('unfollow', userId)
    expect(await post(raw, null)).toMatchObject({
      status: 401,
      body: { error: 'Invalid signature' },
    })
    expect((await post(raw, lineSignature('another-secret', raw))).status).toBe(401)
    expect((await post(raw, lineSignature(MESSAGING_SECRET, `${raw} `))).status).toBe(401)
    const [subscription] = (await world.repositories().subscriptions.listProduct(PRODUCT)).records
    expect(subscription.status).toBe('pending')
  })

  it('answers 503 while LINE is not configured', async () => {
    delete process.env.LINE_LOGIN_CHANNEL_ID
    expect(await post(body('follow', newLineUserId()))).toMatchObject({
      status: 503,
      body: { error: 'LINE is not configured' },
    })
  })

  it('ends every waiting LINE sign-up of a user who unfollows, and marks them unreachable', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    await world.signUp({ productSlug: VARIANT_PRODUCT, variant: 'shiro' })
    const other = newLineUserId()
    world.standIn.nextLogin = { userId: other, addsFriend: true }
    await world.signUp({ productSlug: PRODUCT })

    const answer = await post(body('unfollow', userId))
    expect(answer).toMatchObject({
      status: 200,
      body: { success: true, received: 1, handled: 1, unsubscribed: 2 },
    })
    const repositories = world.repositories()
    const all = [
      ...(await repositories.subscriptions.listProduct(PRODUCT)).records,
      ...(await repositories.subscriptions.listProduct(VARIANT_PRODUCT)).records,
    ]
    const byUser = (id: string) => all.filter((record) => record.lineUserId === id)
    expect(byUser(userId).map((record) => record.status)).toEqual(['unsubscribed', 'unsubscribed'])
    expect(byUser(userId).every((record) => typeof record.unsubscribedAt === 'string')).toBe(true)
    expect(byUser(other).map((record) => record.status)).toEqual(['pending'])
    expect(await repositories.lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: false,
    })
    // the audit names the webhook as who ended them
    const audit = await openAuditRepository(world.context()).list({ actor: 'line-webhook' }, 0, 10)
    expect(audit.entries.map((entry) => [entry.from, entry.to])).toEqual([
      ['pending', 'unsubscribed'],
      ['pending', 'unsubscribed'],
    ])
    // a repeated delivery of the event changes nothing more
    expect((await post(body('unfollow', userId))).body.unsubscribed).toBe(0)
    expect(JSON.stringify(world.logs)).not.toContain(userId)
  })

  it('marks a user who follows again reachable; a new sign-up is needed to be messaged', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    await post(body('unfollow', userId))
    const later = { timestamp: 1764000060000 }
    expect((await post(body('follow', userId, later))).body).toMatchObject({
      handled: 1,
      unsubscribed: 0,
    })
    const repositories = world.repositories()
    expect(await repositories.lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: true,
    })
    const [subscription] = (await repositories.subscriptions.listProduct(PRODUCT)).records
    expect(subscription.status).toBe('unsubscribed')
  })

  it('ignores a signed event sent again after a newer one, and an event without its time', async () => {
    const userId = world.standIn.nextLogin.userId
    await world.signUp({ productSlug: PRODUCT })
    const unfollow = body('unfollow', userId, { timestamp: 1764000000000 })
    await post(unfollow)
    await post(body('follow', userId, { timestamp: 1764000060000 }))
    // the old unfollow, replayed byte for byte with its valid signature: nothing changes
    expect((await post(unfollow)).body).toMatchObject({ received: 1, handled: 0 })
    expect(await world.repositories().lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: true,
      lastEventAt: 1764000060000,
    })
    const untimed = body('unfollow', userId, { timestamp: undefined })
    expect((await post(untimed)).body).toMatchObject({ received: 1, handled: 0 })
    expect(await world.repositories().lineContacts.get(lineUserHash(userId))).toMatchObject({
      friend: true,
    })
  })

  it('answers 200 and stores nothing for other events and for users it never saw', async () => {
    const stranger = newLineUserId()
    for (const raw of [
      body('follow', stranger),
      body('message', stranger, { message: { type: 'text', id: '1', text: 'こんにちは' } }),
      JSON.stringify({ destination: 'U0', events: [] }),
    ]) {
      expect((await post(raw)).body).toMatchObject({ success: true, handled: 0 })
    }
    expect(await world.repositories().lineContacts.get(lineUserHash(stranger))).toBeNull()
  })

  it('answers 400 for a signed body that is not LINE’s', async () => {
    expect((await post('not json')).status).toBe(400)
    expect((await post('{"destination":"U0"}')).status).toBe(400)
  })
})
