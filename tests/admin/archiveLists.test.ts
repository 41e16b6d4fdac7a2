import { describe, expect, it } from 'vitest'
import * as notifyArchivesListModule from '../../netlify/functions/admin-notify-archives-list.js'
import * as reservationsArchivesListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import { at, endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const reservationsArchives = endpoint(reservationsArchivesListModule, 'preorder')
const notifyArchives = endpoint(notifyArchivesListModule, 'preorder')

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

/** `count` archived reservations, archived at minutes 1..count (so the newest is the last). */
async function seedArchived(count: number) {
  const scope = isolatedScope()
  const records = []
  for (let minute = 1; minute <= count; minute += 1) {
    records.push(
      await scope.seedReservation({
        isArchived: true,
        archivedAt: at(minute),
        createdAt: at(100 - minute),
        productSlug: minute % 2 ? 'blue-mug' : 'red-mug',
        status: minute % 3 === 0 ? 'responded' : minute % 3 === 1 ? 'reserved' : 'confirmed',
      }),
    )
  }
  await scope.seedReservation({ createdAt: at(500) })
  return { scope, newestFirst: records.reverse() }
}

describe('POST /api/admin/reservations/archives/list', () => {
  it('defaults: page 1, pageSize 20, sorted by archivedAt desc, active records excluded', async () => {
    const { scope, newestFirst } = await seedArchived(25)
    const { status, body } = await scope.call(reservationsArchives, {})
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      reservations: newestFirst.slice(0, 20),
      total: 25,
      page: 1,
      pageSize: 20,
      totalPages: 2,
    })
    const second = await scope.call(reservationsArchives, { page: 2 })
    expect(second.body.reservations).toEqual(newestFirst.slice(20))
  })

  it('an exact multiple of pageSize has no extra page; beyond the last page is empty with the true totals', async () => {
    const { scope, newestFirst } = await seedArchived(6)
    const last = await scope.call(reservationsArchives, { page: 2, pageSize: 3 })
    expect(last.body).toMatchObject({ total: 6, page: 2, pageSize: 3, totalPages: 2 })
    expect(last.body.reservations).toEqual(newestFirst.slice(3, 6))
    const beyond = await scope.call(reservationsArchives, { page: 3, pageSize: 3 })
    expect(beyond.status).toBe(200)
    expect(beyond.body).toEqual({
      success: true,
      reservations: [],
      total: 6,
      page: 3,
      pageSize: 3,
      totalPages: 2,
    })
  })

  it('an empty result echoes page and pageSize with total 0 and totalPages 0', async () => {
    const scope = isolatedScope()
    await scope.seedReservation()
    const { body } = await scope.call(reservationsArchives, { page: 4, pageSize: 7 })
    expect(body).toEqual({
      success: true,
      reservations: [],
      total: 0,
      page: 4,
      pageSize: 7,
      totalPages: 0,
    })
  })

  it('filters by product and by stored status, legacy values included (D3)', async () => {
    const { scope, newestFirst } = await seedArchived(9)
    const red = await scope.call(reservationsArchives, { productSlug: 'red-mug' })
    expect(red.body.reservations).toEqual(newestFirst.filter((r) => r.productSlug === 'red-mug'))
    for (const status of ['responded', 'reserved', 'confirmed']) {
      const answer = await scope.call(reservationsArchives, { status })
      expect(answer.body.total).toBe(3)
      expect(answer.body.reservations).toEqual(newestFirst.filter((r) => r.status === status))
    }
    const both = await scope.call(reservationsArchives, {
      status: 'responded',
      productSlug: 'blue-mug',
    })
    expect(both.body.reservations.map((r: any) => r.archivedAt)).toEqual([at(9), at(3)])
    const none = await scope.call(reservationsArchives, { status: 'pending' })
    expect(none.body).toMatchObject({ reservations: [], total: 0, totalPages: 0 })
  })

  it('pageSize 1 and 100 are accepted', async () => {
    const { scope, newestFirst } = await seedArchived(3)
    const one = await scope.call(reservationsArchives, { pageSize: 1, page: 3 })
    expect(one.body).toMatchObject({ reservations: [newestFirst[2]], totalPages: 3 })
    const hundred = await scope.call(reservationsArchives, { pageSize: 100 })
    expect(hundred.body).toMatchObject({ total: 3, totalPages: 1, pageSize: 100 })
  })

  it('null page and pageSize mean the defaults', async () => {
    const scope = isolatedScope()
    const { body } = await scope.call(reservationsArchives, { page: null, pageSize: null })
    expect(body).toMatchObject({ page: 1, pageSize: 20 })
  })

  it('400 page must be a positive integer for 0, -1, 1.5, "2", true', async () => {
    const scope = isolatedScope()
    for (const page of [0, -1, 1.5, '2', true]) {
      const answer = await scope.call(reservationsArchives, { page })
      expect(answer.status, String(page)).toBe(400)
      expect(answer.body).toEqual({ success: false, error: 'page must be a positive integer' })
    }
  })

  it('400 pageSize must be between 1 and 100 for 0, 101, 1.5, -5, "20"', async () => {
    const scope = isolatedScope()
    for (const pageSize of [0, 101, 1.5, -5, '20']) {
      const answer = await scope.call(reservationsArchives, { pageSize })
      expect(answer.status, String(pageSize)).toBe(400)
      expect(answer.body).toEqual({ success: false, error: 'pageSize must be between 1 and 100' })
    }
  })

  it('400 for non-string filters', async () => {
    const scope = isolatedScope()
    const slug = await scope.call(reservationsArchives, { productSlug: 1 })
    expect(slug.body).toEqual({ success: false, error: 'productSlug must be a string' })
    const status = await scope.call(reservationsArchives, { status: ['pending'] })
    expect(status.body).toEqual({ success: false, error: 'status must be a string' })
  })
})

describe('POST /api/admin/notify/archives/list', () => {
  it('same contract, array named subscriptions', async () => {
    const scope = isolatedScope()
    const a = await scope.seedSubscription({ isArchived: true, archivedAt: at(1) })
    const b = await scope.seedSubscription({
      isArchived: true,
      archivedAt: at(2),
      status: 'unsubscribed',
    })
    await scope.seedSubscription()
    const all = await scope.call(notifyArchives, {})
    expect(all.body).toEqual({
      success: true,
      subscriptions: [b, a],
      total: 2,
      page: 1,
      pageSize: 20,
      totalPages: 1,
    })
    const filtered = await scope.call(notifyArchives, { status: 'unsubscribed', pageSize: 1 })
    expect(filtered.body).toEqual({
      success: true,
      subscriptions: [b],
      total: 1,
      page: 1,
      pageSize: 1,
      totalPages: 1,
    })
    const invalid = await scope.call(notifyArchives, { pageSize: 101 })
    expect(invalid).toMatchObject({
      status: 400,
      body: { success: false, error: 'pageSize must be between 1 and 100' },
    })
  })
})
