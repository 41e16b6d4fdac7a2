import { describe, expect, it } from 'vitest'
import * as notifyArchiveModule from '../../netlify/functions/admin-notify-archive.js'
import * as notifyArchivesListModule from '../../netlify/functions/admin-notify-archives-list.js'
import * as notifyDeleteModule from '../../netlify/functions/admin-notify-delete.js'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as notifyStatusModule from '../../netlify/functions/admin-notify-status.js'
import * as notifyUnarchiveModule from '../../netlify/functions/admin-notify-unarchive.js'
import * as reservationsArchiveModule from '../../netlify/functions/admin-reservations-archive.js'
import * as reservationsArchivesListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import * as reservationsDeleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as reservationsListModule from '../../netlify/functions/admin-reservations-list.js'
import * as reservationsStatusModule from '../../netlify/functions/admin-reservations-status.js'
import * as reservationsUnarchiveModule from '../../netlify/functions/admin-reservations-unarchive.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const reservations = {
  archive: endpoint(reservationsArchiveModule, 'preorder'),
  unarchive: endpoint(reservationsUnarchiveModule, 'preorder'),
  delete: endpoint(reservationsDeleteModule, 'preorder'),
  archivesList: endpoint(reservationsArchivesListModule, 'preorder'),
  list: endpoint(reservationsListModule, 'admin'),
  status: endpoint(reservationsStatusModule, 'admin'),
}
const notify = {
  archive: endpoint(notifyArchiveModule, 'preorder'),
  unarchive: endpoint(notifyUnarchiveModule, 'preorder'),
  delete: endpoint(notifyDeleteModule, 'preorder'),
  archivesList: endpoint(notifyArchivesListModule, 'preorder'),
  list: endpoint(notifyListModule, 'admin'),
  status: endpoint(notifyStatusModule, 'admin'),
}
const OLD = '2020-05-05T05:05:05.000Z'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

function refs(...records: { id: string; productSlug: string }[]) {
  return records.map(({ id, productSlug }) => ({ id, productSlug }))
}

describe('reservations: archive → archives list → unarchive', () => {
  it('round trip keeps the status, removes archivedAt and hides/shows the record', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation({ status: 'confirmed', respondedAt: OLD })
    const b = await scope.seedReservation({ productSlug: 'red-mug' })

    const archived = await scope.call(reservations.archive, { ids: refs(a, b) })
    expect(archived.status).toBe(200)
    expect(archived.body).toEqual({ success: true, archivedCount: 2, archivedIds: [a.id, b.id] })
    const storedA = await scope.repositories.reservations.get(a)
    expect(storedA).toEqual({ ...a, isArchived: true, archivedAt: storedA?.archivedAt })
    expect(Number.isNaN(Date.parse(storedA!.archivedAt!))).toBe(false)

    const active = await scope.call(reservations.list, {})
    expect(active.body.reservations).toEqual([])
    const listed = await scope.call(reservations.archivesList, {})
    expect(listed.body.total).toBe(2)
    expect(listed.body.reservations.map((r: any) => r.id).sort()).toEqual([a.id, b.id].sort())

    const unarchived = await scope.call(reservations.unarchive, { ids: refs(a) })
    expect(unarchived.body).toEqual({ success: true, unarchivedCount: 1, unarchivedIds: [a.id] })
    const restored = await scope.repositories.reservations.get(a)
    expect(restored).toEqual({ ...a, isArchived: false })
    expect(restored).not.toHaveProperty('archivedAt')

    const activeAgain = await scope.call(reservations.list, {})
    expect(activeAgain.body.reservations).toEqual([{ ...a, isArchived: false }])
    const archivesAfter = await scope.call(reservations.archivesList, {})
    expect(archivesAfter.body.reservations.map((r: any) => r.id)).toEqual([b.id])
  })

  it('archiving an archived record succeeds and keeps its first archivedAt', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation({ isArchived: true, archivedAt: OLD })
    const answer = await scope.call(reservations.archive, { ids: refs(a) })
    expect(answer.body).toEqual({ success: true, archivedCount: 1, archivedIds: [a.id] })
    expect((await scope.repositories.reservations.get(a))?.archivedAt).toBe(OLD)
  })

  it('unarchiving an active record succeeds and changes nothing but isArchived', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation()
    const answer = await scope.call(reservations.unarchive, { ids: refs(a) })
    expect(answer.body).toEqual({ success: true, unarchivedCount: 1, unarchivedIds: [a.id] })
    expect(await scope.repositories.reservations.get(a)).toEqual({ ...a, isArchived: false })
  })

  it('reports missing records per item inside a 200, still processing the others; duplicates once', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation()
    const missing = { id: 'res_missing', productSlug: a.productSlug }
    for (const action of ['archive', 'unarchive', 'delete'] as const) {
      const answer = await scope.call(reservations[action], {
        ids: [missing, ...refs(a), ...refs(a)],
      })
      const past = `${action}d`
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({
        success: true,
        [`${past}Count`]: 1,
        [`${past}Ids`]: [a.id],
        errors: [{ id: 'res_missing', error: 'Reservation not found' }],
      })
    }
  })

  it('delete removes the record: status update 404s, lists no longer show it', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation()
    const b = await scope.seedReservation({ isArchived: true, archivedAt: OLD })
    const kept = await scope.seedReservation()
    const deleted = await scope.call(reservations.delete, { ids: refs(a, b) })
    expect(deleted.body).toEqual({ success: true, deletedCount: 2, deletedIds: [a.id, b.id] })
    expect(await scope.repositories.reservations.get(a)).toBeNull()

    const update = await scope.call(reservations.status, { ...refs(a)[0], status: 'confirmed' })
    expect(update.status).toBe(404)
    expect(update.body).toEqual({ success: false, error: 'Reservation not found' })
    expect((await scope.call(reservations.list, {})).body.reservations).toEqual([kept])
    expect((await scope.call(reservations.archivesList, {})).body.total).toBe(0)

    const again = await scope.call(reservations.delete, { ids: refs(a) })
    expect(again.body).toEqual({
      success: true,
      deletedCount: 0,
      deletedIds: [],
      errors: [{ id: a.id, error: 'Reservation not found' }],
    })
  })
})

describe('notify subscriptions: the same operations', () => {
  it('archive → archives list → unarchive → delete', async () => {
    const scope = isolatedScope()
    const a = await scope.seedSubscription({ status: 'notified', notifiedAt: OLD })
    const archived = await scope.call(notify.archive, { ids: refs(a) })
    expect(archived.body).toEqual({ success: true, archivedCount: 1, archivedIds: [a.id] })
    expect((await scope.call(notify.list, {})).body.subscriptions).toEqual([])

    const listed = await scope.call(notify.archivesList, { status: 'notified' })
    expect(listed.body).toMatchObject({ success: true, total: 1, page: 1, pageSize: 20 })
    expect(listed.body.subscriptions[0]).toMatchObject({ ...a, isArchived: true })

    const unarchived = await scope.call(notify.unarchive, { ids: refs(a) })
    expect(unarchived.body).toEqual({ success: true, unarchivedCount: 1, unarchivedIds: [a.id] })
    expect(await scope.repositories.subscriptions.get(a)).toEqual({ ...a, isArchived: false })

    const deleted = await scope.call(notify.delete, { ids: refs(a) })
    expect(deleted.body).toEqual({ success: true, deletedCount: 1, deletedIds: [a.id] })
    const update = await scope.call(notify.status, { ...refs(a)[0], status: 'pending' })
    expect(update).toMatchObject({
      status: 404,
      body: { success: false, error: 'Subscription not found' },
    })
  })

  it('per-item Subscription not found', async () => {
    const scope = isolatedScope()
    for (const action of ['archive', 'unarchive', 'delete'] as const) {
      const answer = await scope.call(notify[action], {
        ids: [{ id: 'ntf_missing', productSlug: 'blue-mug' }],
      })
      expect(answer.status).toBe(200)
      expect(answer.body.errors).toEqual([{ id: 'ntf_missing', error: 'Subscription not found' }])
    }
  })
})

describe('bulk validation (D5), for every bulk endpoint', () => {
  const all = [
    ...Object.entries(reservations),
    ...Object.entries(notify).map(([name, target]) => [`notify ${name}`, target] as const),
  ].filter(([name]) => /archive$|unarchive$|delete$/.test(name))

  const cases: [unknown, string][] = [
    [undefined, 'ids array is required'],
    [{}, 'ids array is required'],
    [{ ids: null }, 'ids array is required'],
    [{ ids: 'res_1' }, 'ids array is required'],
    [{ ids: { id: 'a', productSlug: 'b' } }, 'ids array is required'],
    [{ ids: [] }, 'ids array cannot be empty'],
    [
      { ids: Array.from({ length: 101 }, (_, i) => ({ id: `x${i}`, productSlug: 'p' })) },
      'ids array cannot exceed 100 items',
    ],
    [{ ids: ['res_1'] }, 'Each item needs a string id and productSlug'],
    [{ ids: [{ id: 'res_1' }] }, 'Each item needs a string id and productSlug'],
    [{ ids: [{ id: '', productSlug: 'p' }] }, 'Each item needs a string id and productSlug'],
    [{ ids: [{ id: 1, productSlug: 'p' }] }, 'Each item needs a string id and productSlug'],
    [{ ids: [null] }, 'Each item needs a string id and productSlug'],
  ]

  for (const [name, target] of all) {
    it(`${name}: every documented 400`, async () => {
      const scope = isolatedScope()
      for (const [body, error] of cases) {
        const answer = await scope.call(target, body)
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body).toEqual({ success: false, error })
      }
    })
  }

  it('one invalid item means nothing is changed', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation()
    const answer = await scope.call(reservations.delete, {
      ids: [...refs(a), { id: 'res_2', productSlug: '' }],
    })
    expect(answer.status).toBe(400)
    expect(await scope.repositories.reservations.get(a)).toEqual(a)
  })

  it('exactly 100 items are accepted', async () => {
    const scope = isolatedScope()
    const ids = Array.from({ length: 100 }, (_, i) => ({ id: `ntf_${i}`, productSlug: 'p' }))
    const answer = await scope.call(notify.archive, { ids })
    expect(answer.status).toBe(200)
    expect(answer.body.errors).toHaveLength(100)
  })
})

describe('concurrency', () => {
  it('50 simultaneous archive calls of different records are all archived', async () => {
    const scope = isolatedScope()
    const seeded = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        scope.seedReservation({ productSlug: i % 3 === 0 ? 'red-mug' : 'blue-mug' }),
      ),
    )
    const answers = await Promise.all(
      seeded.map((record) => scope.call(reservations.archive, { ids: refs(record) })),
    )
    expect(answers.every((answer) => answer.body.archivedCount === 1)).toBe(true)
    const stored = (await scope.repositories.reservations.list()).records
    expect(stored).toHaveLength(50)
    expect(stored.every((record) => record.isArchived === true && record.archivedAt)).toBe(true)
    const listed = await scope.call(reservations.archivesList, { pageSize: 100 })
    expect(listed.body.total).toBe(50)
  })

  it('one bulk call over 60 records changes them all', async () => {
    const scope = isolatedScope()
    const seeded = await Promise.all(Array.from({ length: 60 }, () => scope.seedSubscription()))
    const answer = await scope.call(notify.archive, { ids: refs(...seeded) })
    expect(answer.body.archivedCount).toBe(60)
    expect(answer.body.archivedIds).toEqual(seeded.map((record) => record.id))
    const stored = (await scope.repositories.subscriptions.list()).records
    expect(stored.filter((record) => record.isArchived)).toHaveLength(60)
  })
})
