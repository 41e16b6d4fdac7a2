import { describe, expect, it } from 'vitest'
import * as notifyArchiveModule from '../../netlify/functions/admin-notify-archive.js'
import * as notifyDeleteModule from '../../netlify/functions/admin-notify-delete.js'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as notifyStatusModule from '../../netlify/functions/admin-notify-status.js'
import * as notifyUnarchiveModule from '../../netlify/functions/admin-notify-unarchive.js'
import * as reservationsArchiveModule from '../../netlify/functions/admin-reservations-archive.js'
import * as reservationsDeleteModule from '../../netlify/functions/admin-reservations-delete.js'
import * as reservationsListModule from '../../netlify/functions/admin-reservations-list.js'
import * as reservationsStatusModule from '../../netlify/functions/admin-reservations-status.js'
import * as reservationsUnarchiveModule from '../../netlify/functions/admin-reservations-unarchive.js'
import { UNUSABLE_ID_MESSAGE } from '../../src/lib/storage/recordIds.js'
import { endpoint, isolatedScope, settleScopes } from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

const UNUSABLE = {
  'whitespace only': ' ',
  'full-width space only': '\u3000',
  'inner space': 'res 1',
  'leading space': ' res_1',
  newline: 'res_1\n',
  'control character': 'res\u0001',
  'zero-width space': 'res\u200b',
  'bidi override': 'res\u202e1',
  'line separator': 'res\u2028',
  'lone surrogate': 'res\ud800',
  slash: '../x',
  backslash: 'a\\b',
  dot: '.',
  'dot dot': '..',
  '201 characters': 'x'.repeat(201),
  // why: 261 bytes URL-encoded, over the 255 a blob key segment may have
  '29 Japanese characters': 'あ'.repeat(29),
  '22 emoji (264 bytes URL-encoded)': '😀'.repeat(22),
}

const bulk = {
  'reservations archive': endpoint(reservationsArchiveModule, 'preorder'),
  'reservations unarchive': endpoint(reservationsUnarchiveModule, 'preorder'),
  'reservations delete': endpoint(reservationsDeleteModule, 'preorder'),
  'notify archive': endpoint(notifyArchiveModule, 'preorder'),
  'notify unarchive': endpoint(notifyUnarchiveModule, 'preorder'),
  'notify delete': endpoint(notifyDeleteModule, 'preorder'),
}
const status = {
  reservations: { target: endpoint(reservationsStatusModule, 'admin'), value: 'confirmed' },
  notify: { target: endpoint(notifyStatusModule, 'admin'), value: 'notified' },
}

describe('ids that cannot name a record: 400 at once, one text everywhere', () => {
  for (const [name, { target, value }] of Object.entries(status)) {
    it(`${name} status update refuses every unusable id and productSlug`, async () => {
      const scope = isolatedScope()
      for (const [kind, bad] of Object.entries(UNUSABLE)) {
        for (const body of [
          { id: bad, productSlug: 'blue-mug', status: value },
          { id: 'res_1', productSlug: bad, status: value },
        ]) {
          const answer = await scope.call(target, body)
          expect(answer.status, kind).toBe(400)
          expect(answer.body).toEqual({ success: false, error: UNUSABLE_ID_MESSAGE })
        }
      }
    })
  }

  it('a missing field is still reported first, then the id, then the status', async () => {
    const scope = isolatedScope()
    const missing = await scope.call(status.reservations.target, { id: ' ', status: 'bogus' })
    expect(missing.body.error).toBe('Missing required fields: id, productSlug, status')
    const id = await scope.call(status.reservations.target, {
      id: ' ',
      productSlug: 'p',
      status: 'bogus',
    })
    expect(id.body.error).toBe(UNUSABLE_ID_MESSAGE)
  })

  for (const [name, target] of Object.entries(bulk)) {
    it(`${name} refuses an unusable item with 400 and changes nothing`, async () => {
      const scope = isolatedScope()
      const stored = name.startsWith('notify')
        ? await scope.seedSubscription({ isArchived: true, archivedAt: '2026-01-02T00:00:00.000Z' })
        : await scope.seedReservation({ isArchived: true, archivedAt: '2026-01-02T00:00:00.000Z' })
      const ref = { id: stored.id, productSlug: stored.productSlug }
      for (const [kind, bad] of Object.entries(UNUSABLE)) {
        for (const item of [
          { id: bad, productSlug: 'blue-mug' },
          { id: 'res_1', productSlug: bad },
        ]) {
          const answer = await scope.call(target, { ids: [ref, item] })
          expect(answer.status, kind).toBe(400)
          expect(answer.body).toEqual({ success: false, error: UNUSABLE_ID_MESSAGE })
        }
      }
      const repository = name.startsWith('notify')
        ? scope.repositories.subscriptions
        : scope.repositories.reservations
      expect(await repository.get(ref)).toEqual(stored)
    })
  }

  it("D5's text wins when another item has no string id", async () => {
    const scope = isolatedScope()
    const answer = await scope.call(bulk['reservations delete'], {
      ids: [
        { id: ' ', productSlug: 'blue-mug' },
        { id: '', productSlug: 'blue-mug' },
      ],
    })
    expect(answer.body).toEqual({
      success: false,
      error: 'Each item needs a string id and productSlug',
    })
  })

  it('an id and productSlug of 28 Japanese characters (252 bytes URL-encoded) pass', async () => {
    const scope = isolatedScope()
    const record = await scope.seedReservation({
      id: 'い'.repeat(28),
      productSlug: 'う'.repeat(28),
    })
    const answer = await scope.call(status.reservations.target, {
      id: record.id,
      productSlug: record.productSlug,
      status: 'confirmed',
    })
    expect(answer.status).toBe(200)
    // the change journal names a key this long by its hash; the list still sees the change
    const listed = await scope.call(endpoint(reservationsListModule, 'admin'), {})
    expect(listed.body.reservations).toMatchObject([{ id: record.id, status: 'confirmed' }])
  })

  it('generated ids and slugs pass', async () => {
    const scope = isolatedScope()
    const a = await scope.seedReservation({ id: `res_${crypto.randomUUID()}` })
    const b = await scope.seedSubscription({ id: 'ntf_1763900000000-0123456789' })
    const archived = await scope.call(bulk['reservations archive'], {
      ids: [{ id: a.id, productSlug: a.productSlug }],
    })
    expect(archived.body.archivedIds).toEqual([a.id])
    const notified = await scope.call(status.notify.target, {
      id: b.id,
      productSlug: b.productSlug,
      status: 'notified',
    })
    expect(notified.status).toBe(200)
  })
})

describe('error texts that echo input are cut to 50 characters', () => {
  const long = 'x'.repeat(59_999) + 'あ'
  const cut = `${'x'.repeat(50)}…`

  it('status update and list filter: Invalid status', async () => {
    const scope = isolatedScope()
    const update = await scope.call(status.reservations.target, {
      id: 'res_1',
      productSlug: 'p',
      status: long,
    })
    expect(update.body).toEqual({ success: false, error: `Invalid status: ${cut}` })
    for (const list of [
      endpoint(reservationsListModule, 'admin'),
      endpoint(notifyListModule, 'admin'),
    ]) {
      const answer = await scope.call(list, { status: long })
      expect(answer.body).toEqual({ success: false, error: `Invalid status: ${cut}` })
    }
    const array = await scope.call(endpoint(notifyListModule, 'admin'), {
      status: Array.from({ length: 100 }, () => 'x'),
    })
    expect(array.body.error).toBe(
      `Invalid status: ${JSON.stringify(Array(100).fill('x')).slice(0, 50)}…`,
    )
  })

  it('50 characters are shown whole (D4 format unchanged)', async () => {
    const scope = isolatedScope()
    const fifty = 'x'.repeat(50)
    const answer = await scope.call(status.notify.target, {
      id: 'ntf_1',
      productSlug: 'p',
      status: fifty,
    })
    expect(answer.body.error).toBe(`Invalid status: ${fifty}`)
  })
})
