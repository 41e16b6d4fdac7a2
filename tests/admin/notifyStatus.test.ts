import { describe, expect, it } from 'vitest'
import * as notifyStatusModule from '../../netlify/functions/admin-notify-status.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const notifyStatus = endpoint(notifyStatusModule, 'admin')
const MISSING = 'Missing required fields: id, productSlug, status'
const OLD = '2020-05-05T05:05:05.000Z'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

describe('POST /api/admin-notify-status', () => {
  it('pending -> notified sets notifiedAt to now', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedSubscription()
    const before = Date.now()
    const { status, body } = await scope.call(notifyStatus, { ...ref(seeded), status: 'notified' })
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      subscription: { ...seeded, status: 'notified', notifiedAt: body.subscription.notifiedAt },
    })
    expect(Date.parse(body.subscription.notifiedAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(await scope.repositories.subscriptions.get(seeded)).toEqual(body.subscription)
  })

  it('notified -> notified keeps the first notifiedAt', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedSubscription({ status: 'notified', notifiedAt: OLD })
    const { body } = await scope.call(notifyStatus, { ...ref(seeded), status: 'notified' })
    expect(body.subscription.notifiedAt).toBe(OLD)
  })

  it('unsubscribed -> notified sets a new notifiedAt', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedSubscription({ status: 'unsubscribed', notifiedAt: OLD })
    const { body } = await scope.call(notifyStatus, { ...ref(seeded), status: 'notified' })
    expect(body.subscription.status).toBe('notified')
    expect(body.subscription.notifiedAt).not.toBe(OLD)
    expect(Date.parse(body.subscription.notifiedAt)).toBeGreaterThan(Date.parse(OLD))
  })

  it('notified -> pending sets notifiedAt to null', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedSubscription({ status: 'notified', notifiedAt: OLD })
    const { body } = await scope.call(notifyStatus, { ...ref(seeded), status: 'pending' })
    expect(body.subscription).toMatchObject({ status: 'pending', notifiedAt: null })
  })

  it('-> unsubscribed keeps notifiedAt (null when never notified)', async () => {
    const scope = isolatedScope()
    const notified = await scope.seedSubscription({ status: 'notified', notifiedAt: OLD })
    const pending = await scope.seedSubscription()
    const a = await scope.call(notifyStatus, { ...ref(notified), status: 'unsubscribed' })
    const b = await scope.call(notifyStatus, { ...ref(pending), status: 'unsubscribed' })
    expect(a.body.subscription).toMatchObject({ status: 'unsubscribed', notifiedAt: OLD })
    expect(b.body.subscription).toMatchObject({ status: 'unsubscribed', notifiedAt: null })
  })

  it('any status may be set, from any status (§3.1)', async () => {
    const scope = isolatedScope()
    for (const from of ['pending', 'notified', 'unsubscribed'] as const) {
      for (const to of ['pending', 'notified', 'unsubscribed']) {
        const seeded = await scope.seedSubscription({ status: from })
        const answer = await scope.call(notifyStatus, { ...ref(seeded), status: to })
        expect(answer.status).toBe(200)
        expect(answer.body.subscription.status).toBe(to)
      }
    }
  })

  it('ignores notes and other fields', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedSubscription()
    const { body } = await scope.call(notifyStatus, {
      ...ref(seeded),
      status: 'unsubscribed',
      notes: 'x',
      email: 'other@example.com',
    })
    expect(body.subscription).toEqual({ ...seeded, status: 'unsubscribed' })
  })

  it('404 Subscription not found', async () => {
    const scope = isolatedScope()
    const answer = await scope.call(notifyStatus, {
      id: 'ntf_missing',
      productSlug: 'blue-mug',
      status: 'notified',
    })
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({ success: false, error: 'Subscription not found' })
  })

  it('400 Missing required fields / Invalid status', async () => {
    const scope = isolatedScope()
    const missing = await scope.call(notifyStatus, { id: 'x', status: 'notified' })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ success: false, error: MISSING })
    const invalid = await scope.call(notifyStatus, {
      id: 'x',
      productSlug: 'p',
      status: 'confirmed',
    })
    expect(invalid.status).toBe(400)
    expect(invalid.body).toEqual({ success: false, error: 'Invalid status: confirmed' })
  })
})

function ref(record: { id: string; productSlug: string }) {
  return { id: record.id, productSlug: record.productSlug }
}
