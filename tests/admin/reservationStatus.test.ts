import { describe, expect, it } from 'vitest'
import * as reservationsStatusModule from '../../netlify/functions/admin-reservations-status.js'
import { RESERVATION_STATUSES } from '../../src/lib/storage/records.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const reservationsStatus = endpoint(reservationsStatusModule, 'admin')
const MISSING = 'Missing required fields: id, productSlug, status'
const OLD = '2020-05-05T05:05:05.000Z'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

const ALLOWED = new Set([
  'pending->confirmed',
  'pending->cancelled',
  'confirmed->fulfilled',
  'confirmed->cancelled',
  'confirmed->pending',
  'fulfilled->confirmed',
  'cancelled->pending',
])

describe('POST /api/admin-reservations-status', () => {
  describe('the §3.2 transition table, every ordered pair', () => {
    for (const from of RESERVATION_STATUSES) {
      for (const to of RESERVATION_STATUSES) {
        const expected = from === to || ALLOWED.has(`${from}->${to}`) ? 200 : 409
        it(`${from} -> ${to}: ${expected}`, async () => {
          const scope = isolatedScope()
          const seeded = await scope.seedReservation({
            status: from,
            respondedAt: from === 'pending' ? null : OLD,
          })
          const { status, body } = await scope.call(reservationsStatus, {
            id: seeded.id,
            productSlug: seeded.productSlug,
            status: to,
          })
          expect(status).toBe(expected)
          const stored = await scope.repositories.reservations.get(seeded)
          if (expected === 200) {
            expect(body).toEqual({ success: true, reservation: { ...stored } })
            expect(stored?.status).toBe(to)
          } else {
            expect(body).toEqual({
              success: false,
              error: `Invalid status transition: ${from} -> ${to}`,
            })
            expect(stored).toEqual(seeded)
          }
        })
      }
    }
  })

  it('answers the whole updated record and never changes id, productSlug, createdAt or other fields', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedReservation({ notes: 'first call' })
    const { status, body } = await scope.call(reservationsStatus, {
      id: seeded.id,
      productSlug: seeded.productSlug,
      status: 'confirmed',
      createdAt: '1999-01-01T00:00:00.000Z',
      name: 'someone else',
    })
    expect(status).toBe(200)
    expect(body.reservation).toEqual({
      ...seeded,
      status: 'confirmed',
      respondedAt: body.reservation.respondedAt,
      // the status changed now (it names the change in the status e-mail's idempotency key)
      statusChangedAt: body.reservation.respondedAt,
    })
    expect(await scope.repositories.reservations.get(seeded)).toEqual(body.reservation)
  })

  describe('notes', () => {
    async function updateNotes(notes: unknown, initial = 'call back on Monday') {
      const scope = isolatedScope()
      const seeded = await scope.seedReservation({ notes: initial })
      const body: Record<string, unknown> = {
        id: seeded.id,
        productSlug: seeded.productSlug,
        status: 'pending',
      }
      if (notes !== undefined) body.notes = notes
      const answer = await scope.call(reservationsStatus, body)
      return { answer, stored: await scope.repositories.reservations.get(seeded) }
    }

    it('omitted keeps the existing notes (same status = notes-only edit)', async () => {
      const { answer, stored } = await updateNotes(undefined)
      expect(answer.status).toBe(200)
      expect(stored?.notes).toBe('call back on Monday')
    })

    it('given replaces them', async () => {
      const { answer, stored } = await updateNotes('paid in shop')
      expect(answer.body.reservation.notes).toBe('paid in shop')
      expect(stored?.notes).toBe('paid in shop')
    })

    it("'' clears them", async () => {
      const { answer, stored } = await updateNotes('')
      expect(answer.status).toBe(200)
      expect(stored?.notes).toBe('')
    })

    it('2000 characters are accepted, 2001 are refused and nothing changes', async () => {
      expect((await updateNotes('あ'.repeat(2000))).stored?.notes).toHaveLength(2000)
      const { answer, stored } = await updateNotes('x'.repeat(2001))
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({
        success: false,
        error: 'notes must be at most 2000 characters',
      })
      expect(stored?.notes).toBe('call back on Monday')
    })

    it('a non-string (or null) is refused with a clear message', async () => {
      for (const notes of [null, 42, ['a']]) {
        const { answer, stored } = await updateNotes(notes)
        expect(answer.status).toBe(400)
        expect(answer.body.error).toBe('notes must be a string (send "" to clear the notes)')
        expect(stored?.notes).toBe('call back on Monday')
      }
    })
  })

  describe('respondedAt (D4)', () => {
    it('is set the first time the status leaves pending', async () => {
      const scope = isolatedScope()
      const seeded = await scope.seedReservation()
      const before = Date.now()
      const { body } = await scope.call(reservationsStatus, { ...ref(seeded), status: 'confirmed' })
      const respondedAt = Date.parse(body.reservation.respondedAt)
      expect(respondedAt).toBeGreaterThanOrEqual(before - 1000)
      expect(respondedAt).toBeLessThanOrEqual(Date.now() + 1000)
    })

    it('stays null while the reservation stays pending', async () => {
      const scope = isolatedScope()
      const seeded = await scope.seedReservation()
      const { body } = await scope.call(reservationsStatus, {
        ...ref(seeded),
        status: 'pending',
        notes: 'x',
      })
      expect(body.reservation.respondedAt).toBeNull()
    })

    it('is kept afterwards, also back through pending', async () => {
      const scope = isolatedScope()
      const seeded = await scope.seedReservation({ status: 'confirmed', respondedAt: OLD })
      for (const status of ['pending', 'confirmed', 'fulfilled', 'confirmed', 'cancelled']) {
        const { status: code, body } = await scope.call(reservationsStatus, {
          ...ref(seeded),
          status,
        })
        expect(code).toBe(200)
        expect(body.reservation.respondedAt).toBe(OLD)
      }
    })
  })

  it('updates an archived reservation, which stays archived', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedReservation({ isArchived: true, archivedAt: OLD })
    const { status, body } = await scope.call(reservationsStatus, {
      ...ref(seeded),
      status: 'confirmed',
    })
    expect(status).toBe(200)
    expect(body.reservation).toMatchObject({
      status: 'confirmed',
      isArchived: true,
      archivedAt: OLD,
    })
  })

  it('a legacy archive status (D3) may be replaced by one of the four', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedReservation({ status: 'reserved', respondedAt: OLD })
    const { status, body } = await scope.call(reservationsStatus, {
      ...ref(seeded),
      status: 'fulfilled',
    })
    expect(status).toBe(200)
    expect(body.reservation.status).toBe('fulfilled')
  })

  it('404 Reservation not found for an unknown id or product', async () => {
    const scope = isolatedScope()
    const seeded = await scope.seedReservation()
    for (const body of [
      { id: 'res_missing', productSlug: seeded.productSlug, status: 'confirmed' },
      { id: seeded.id, productSlug: 'other-product', status: 'confirmed' },
    ]) {
      const answer = await scope.call(reservationsStatus, body)
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ success: false, error: 'Reservation not found' })
    }
  })

  it('400 for missing, empty or non-string fields, before looking at the status value', async () => {
    const scope = isolatedScope()
    const bodies: unknown[] = [
      undefined,
      {},
      { productSlug: 'p', status: 'confirmed' },
      { id: 'x', status: 'confirmed' },
      { id: 'x', productSlug: 'p' },
      { id: '', productSlug: 'p', status: 'confirmed' },
      { id: 'x', productSlug: '', status: 'bogus' },
      { id: 'x', productSlug: 'p', status: '' },
      { id: 1, productSlug: 'p', status: 'confirmed' },
      { id: 'x', productSlug: ['p'], status: 'confirmed' },
      { id: 'x', productSlug: 'p', status: null },
    ]
    for (const body of bodies) {
      const answer = await scope.call(reservationsStatus, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body).toEqual({ success: false, error: MISSING })
    }
  })

  it('400 Invalid status for an unknown status, even when the record does not exist', async () => {
    const scope = isolatedScope()
    for (const value of ['notified', 'CONFIRMED', 'responded']) {
      const answer = await scope.call(reservationsStatus, {
        id: 'res_missing',
        productSlug: 'p',
        status: value,
      })
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ success: false, error: `Invalid status: ${value}` })
    }
  })

  it('20 simultaneous updates of different reservations are all kept', async () => {
    const scope = isolatedScope()
    const seeded = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        scope.seedReservation({ productSlug: index % 2 ? 'blue-mug' : 'red-mug' }),
      ),
    )
    const answers = await Promise.all(
      seeded.map((record, index) =>
        scope.call(reservationsStatus, {
          ...ref(record),
          status: index % 2 ? 'confirmed' : 'cancelled',
          notes: `note ${index}`,
        }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const stored = (await scope.repositories.reservations.list()).records
    expect(stored).toHaveLength(20)
    seeded.forEach((record, index) => {
      expect(stored.find((item) => item.id === record.id)).toMatchObject({
        status: index % 2 ? 'confirmed' : 'cancelled',
        notes: `note ${index}`,
      })
    })
  })
})

function ref(record: { id: string; productSlug: string }) {
  return { id: record.id, productSlug: record.productSlug }
}
