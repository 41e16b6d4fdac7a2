import { beforeEach, describe, expect, it } from 'vitest'
import * as auditListModule from '../../netlify/functions/admin-audit-list.js'
import * as sendModule from '../../netlify/functions/admin-notify-send.js'
import * as notifyStatusModule from '../../netlify/functions/admin-notify-status.js'
import * as reservationsArchiveModule from '../../netlify/functions/admin-reservations-archive.js'
import * as reservationsDeleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as reservationsStatusModule from '../../netlify/functions/admin-reservations-status.js'
import * as reservationsUnarchiveModule from '../../netlify/functions/admin-reservations-unarchive.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { ADMIN_TOKEN, PREORDER_TOKEN, useApiTokens } from '../helpers/tokens.js'

/** Every change appends an audit entry with its actor; the list endpoint (D5 paging). */

const SATO = 'sato-audit-token-0123456789'
const SUZUKI = 'suzuki-audit-token-0123456789'

const status = endpoint(reservationsStatusModule, 'admin')
const notifyStatus = endpoint(notifyStatusModule, 'admin')
const archive = endpoint(reservationsArchiveModule, 'preorder')
const unarchive = endpoint(reservationsUnarchiveModule, 'preorder')
const remove = endpoint(reservationsDeleteModule, 'preorder')
const auditList = endpoint(auditListModule, 'admin')
const send = endpoint(sendModule, 'admin')

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()
beforeEach(() => {
  process.env.STAFF_TOKENS = `sato:${SATO}:admin,suzuki:${SUZUKI}:preorder`
})

describe('audit trail', () => {
  it('records each change kind with the right actor, newest first; a delete keeps them, without personal data', async () => {
    const scope = isolatedScope()
    const hanako = await scope.seedReservation({ name: '山田 花子', email: 'hanako@example.jp' })
    const ref = { id: hanako.id, productSlug: hanako.productSlug }
    const sub = await scope.seedSubscription({ email: 'sub@example.jp' })

    expect(
      (await scope.call(status, { ...ref, status: 'confirmed' }, { token: SATO })).status,
    ).toBe(200)
    expect(
      (await scope.call(status, { ...ref, status: 'confirmed', notes: '山田様 090-0000-0000' }))
        .status,
    ).toBe(200)
    expect((await scope.call(archive, { ids: [ref] }, { token: SUZUKI })).status).toBe(200)
    expect((await scope.call(unarchive, { ids: [ref] }, { token: PREORDER_TOKEN })).status).toBe(
      200,
    )
    expect((await scope.call(archive, { ids: [ref] }, { token: SUZUKI })).status).toBe(200)
    expect((await scope.call(remove, { ids: [ref] }, { token: SUZUKI })).status).toBe(200)
    const subRef = { id: sub.id, productSlug: sub.productSlug, status: 'unsubscribed' }
    expect((await scope.call(notifyStatus, subRef, { token: ADMIN_TOKEN })).status).toBe(200)

    const trail = await scope.call(auditList, { recordId: hanako.id })
    expect(trail.status).toBe(200)
    expect(trail.body).toMatchObject({
      success: true,
      total: 6,
      page: 1,
      pageSize: 20,
      totalPages: 1,
    })
    expect(
      trail.body.entries.map((e: { action: string; actor: string; from: string; to: string }) => [
        e.action,
        e.actor,
        e.from,
        e.to,
      ]),
    ).toEqual([
      ['delete', 'suzuki', null, null],
      ['archive', 'suzuki', null, null],
      ['unarchive', 'preorder', null, null],
      ['archive', 'suzuki', null, null],
      ['notes', 'admin', null, null],
      ['status', 'sato', 'pending', 'confirmed'],
    ])
    const [newest] = trail.body.entries
    expect(newest.record).toEqual({ type: 'reservation', ...ref })
    expect(newest.requestId).toEqual(expect.any(String))
    expect(Date.parse(newest.at)).not.toBeNaN()
    const text = JSON.stringify(trail.body)
    for (const personal of ['山田', 'hanako@example.jp', '090-0000-0000']) {
      expect(text).not.toContain(personal)
    }

    const subscriptionTrail = await scope.call(auditList, { recordId: sub.id })
    expect(subscriptionTrail.body.entries).toEqual([
      expect.objectContaining({
        actor: 'admin',
        action: 'status',
        from: 'pending',
        to: 'unsubscribed',
        record: { type: 'subscription', id: sub.id, productSlug: sub.productSlug },
      }),
    ])
  })

  it('records a restock send with its sender and the number of recipients, as record-only without an e-mail provider', async () => {
    const scope = isolatedScope()
    const sub = await scope.seedSubscription({ email: 'waiting@example.jp' })
    const sent = await scope.call(
      send,
      { productSlug: sub.productSlug, emailTitle: '再入荷', emailBody: '入荷しました' },
      { token: SATO },
    )
    expect(sent.status).toBe(200)
    const trail = await scope.call(auditList, { recordId: sent.body.notificationId })
    expect(trail.body.entries).toEqual([
      expect.objectContaining({
        actor: 'sato',
        // why: no RESEND_API_KEY here, so nobody was e-mailed; the trail must not say sent
        action: 'send-record-only',
        record: {
          type: 'notification',
          id: sent.body.notificationId,
          productSlug: sub.productSlug,
        },
        to: '1',
      }),
    ])
    expect(JSON.stringify(trail.body)).not.toContain('waiting@example.jp')
  })

  it('filters by actor and by record and actor, pages as D5, and refuses bad paging', async () => {
    const scope = isolatedScope()
    const records = [await scope.seedReservation(), await scope.seedReservation()]
    for (const record of records) {
      const ref = { id: record.id, productSlug: record.productSlug }
      await scope.call(status, { ...ref, status: 'confirmed' }, { token: SATO })
      await scope.call(status, { ...ref, status: 'fulfilled' }, { token: ADMIN_TOKEN })
    }
    const sato = await scope.call(auditList, { actor: 'sato', page: 2, pageSize: 1 })
    expect(sato.body).toMatchObject({ total: 2, page: 2, pageSize: 1, totalPages: 2 })
    expect(sato.body.entries).toHaveLength(1)
    expect(sato.body.entries[0]).toMatchObject({ actor: 'sato', record: { id: records[0].id } })
    const both = await scope.call(auditList, { recordId: records[1].id, actor: 'admin' })
    expect(both.body.entries.map((e: { to: string }) => e.to)).toEqual(['fulfilled'])

    expect((await scope.call(auditList, { page: 0 })).body.error).toBe(
      'page must be a positive integer',
    )
    expect((await scope.call(auditList, { pageSize: 101 })).body.error).toBe(
      'pageSize must be between 1 and 100',
    )
    expect((await scope.call(auditList, {}, { token: SUZUKI })).status).toBe(401)
  })
})
