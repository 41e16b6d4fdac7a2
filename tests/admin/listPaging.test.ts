import { beforeAll, describe, expect, it } from 'vitest'
import * as notifyListModule from '../../netlify/functions/admin-notify-list.js'
import * as reservationsListModule from '../../netlify/functions/admin-reservations-list.js'
import * as archivesListModule from '../../netlify/functions/admin-reservations-archives-list.js'
import { activeListEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { reservationResource } from '../../src/lib/reservations/reservationResource.js'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import { readBase, writeBase, type Tally } from '../../src/lib/storage/listing/indexBase.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import {
  at,
  endpoint,
  isolatedScope,
  rebuildScopeIndexes,
  reservation,
  settleScopes,
  writeSettledReservations,
} from './adminTestKit.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { jsonRequest } from '../helpers/requests.js'
import { useLogCapture } from '../helpers/logs.js'
import { useApiTokens } from '../helpers/tokens.js'

const reservationsList = endpoint(reservationsListModule, 'admin')
const notifyList = endpoint(notifyListModule, 'admin')
const archivesList = endpoint(archivesListModule, 'preorder')

const server = useBlobsServer({ beforeStop: settleScopes })
useApiTokens()
useLogCapture()

const PRODUCTS = ['blue-mug', 'red-mug', 'green-bowl']
const STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'] as const
const SURNAMES = ['すずき', 'たなか', 'さとう']

/** Newest first by createdAt, then id: the order the lists answer (§4.2). */
function newestFirst(records: Reservation[]): Reservation[] {
  return [...records].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
  )
}

describe('paging the active reservation list', () => {
  let scope: ReturnType<typeof isolatedScope>
  let active: Reservation[]
  let archived: Reservation[]
  const hanako = reservation({
    id: 'res_hanako-0001',
    name: 'やまだ はなこ',
    email: 'Hanako.Yamada@Example.com',
    createdAt: at(10_000),
  })

  beforeAll(async () => {
    scope = isolatedScope()
    // why: three records a minute, so equal createdAt values are ordered by id across pages
    const seeded = Array.from({ length: 1_234 }, (_, index) =>
      reservation({
        id: `res_page-${String(index).padStart(5, '0')}`,
        name: `${SURNAMES[index % 3]} ${index}`,
        productSlug: PRODUCTS[index % 3],
        status: STATUSES[index % 4],
        createdAt: at(Math.floor(index / 3)),
        ...(index % 10 === 9 ? { isArchived: true, archivedAt: at(20_000 + index) } : {}),
      }),
    )
    seeded.push(hanako)
    // why: a shop past 300 records has indexes built by the background rebuild and its writes'
    // deltas folded; the writer is dated back so that every delta has settled
    const writer = await writeSettledReservations(scope, seeded, 'list-paging-seed')
    const outcome = await rebuildScopeIndexes(scope, 'list-paging-test')
    expect(outcome).toBe('complete')
    for (const product of PRODUCTS) await writer.fold(product)
    active = newestFirst(seeded.filter((record) => record.isArchived !== true))
    archived = seeded
      .filter((record) => record.isArchived === true)
      .sort((a, b) => (a.archivedAt! < b.archivedAt! ? 1 : -1))
  }, 120_000)

  /** Every page of `filters` at `pageSize`, following nextCursor, and the answers. */
  async function allPages(filters: Record<string, unknown>, pageSize: number) {
    const pages: Record<string, any>[] = []
    let cursor: string | null = null
    do {
      const { status, body } = await scope.call(reservationsList, {
        ...filters,
        pageSize,
        ...(cursor ? { cursor } : {}),
      })
      expect(status).toBe(200)
      pages.push(body)
      cursor = body.nextCursor
      expect(pages.length).toBeLessThan(100)
    } while (cursor)
    return { pages, records: pages.flatMap((page) => page.reservations as Reservation[]) }
  }

  it('yields every active record exactly once, newest first, 100 a page', async () => {
    const { pages, records } = await allPages({}, 100)
    expect(records).toEqual(active)
    expect(pages).toHaveLength(Math.ceil(active.length / 100))
    expect(pages.slice(0, -1).every((page) => page.reservations.length === 100)).toBe(true)
    expect(pages.every((page) => page.total === active.length)).toBe(true)
    expect(pages.at(-1)?.nextCursor).toBeNull()
  })

  it('pages with filters, and the whole list (no paging fields) is the same list', async () => {
    const filters = { status: 'pending', productSlug: 'red-mug' }
    const expected = active.filter(
      (record) => record.status === 'pending' && record.productSlug === 'red-mug',
    )
    expect(expected.length).toBeGreaterThan(50)
    const { records } = await allPages(filters, 30)
    expect(records).toEqual(expected)
    const whole = await scope.call(reservationsList, filters)
    expect(whole.body).toEqual({ success: true, reservations: expected })
  })

  it('finds by name in any kana, width or spacing, by id and by e-mail in any case', async () => {
    for (const q of ['ヤマダハナコ', 'ﾔﾏﾀﾞ ﾊﾅｺ', 'やまだ　はなこ', 'はなこ']) {
      const { body } = await scope.call(reservationsList, { q })
      expect(
        body.reservations.map((r: Reservation) => r.id),
        q,
      ).toEqual([hanako.id])
      expect(body).toMatchObject({ total: 1, nextCursor: null })
    }
    for (const q of ['ＲＥＳ＿ＨＡＮＡＫＯ－０００１', 'res_hanako', 'HANAKO.YAMADA@EXAMPLE.COM']) {
      const { body } = await scope.call(reservationsList, { q })
      expect(
        body.reservations.map((r: Reservation) => r.id),
        q,
      ).toEqual([hanako.id])
    }
    const none = await scope.call(reservationsList, { q: 'いない人' })
    expect(none.body).toEqual({ success: true, reservations: [], total: 0, nextCursor: null })
  })

  it('pages through the records a search finds, with filters', async () => {
    const expected = active.filter(
      (record) => record.name.startsWith('すずき') && record.productSlug === 'blue-mug',
    )
    expect(expected.length).toBeGreaterThan(100)
    const { pages, records } = await allPages({ q: 'スズキ', productSlug: 'blue-mug' }, 100)
    expect(records).toEqual(expected)
    expect(pages.length).toBeGreaterThan(1)
  })

  it('q alone answers the first page of 50', async () => {
    const { body } = await scope.call(reservationsList, { q: 'res_page' })
    expect(body.reservations).toHaveLength(50)
    expect(body.total).toBe(active.length - 1)
    expect(typeof body.nextCursor).toBe('string')
  })

  it('refuses a cursor sent with other filters, another search or to the other list', async () => {
    const first = await scope.call(reservationsList, { status: 'pending', pageSize: 10 })
    const cursor = first.body.nextCursor
    for (const body of [
      { status: 'confirmed', pageSize: 10, cursor },
      { pageSize: 10, cursor },
      { status: 'pending', q: 'すずき', pageSize: 10, cursor },
    ]) {
      const answer = await scope.call(reservationsList, body)
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({ success: false, error: 'cursor is not valid for this list' })
    }
    const other = await scope.call(notifyList, { status: 'pending', pageSize: 10, cursor })
    expect(other.body).toEqual({ success: false, error: 'cursor is not valid for this list' })
  })

  it.each([
    [{ pageSize: 0 }, 'pageSize must be between 1 and 500'],
    [{ pageSize: 501 }, 'pageSize must be between 1 and 500'],
    [{ pageSize: 2.5 }, 'pageSize must be between 1 and 500'],
    [{ pageSize: '50' }, 'pageSize must be between 1 and 500'],
    [{ cursor: 'not-a-cursor' }, 'cursor is not valid for this list'],
    [{ cursor: Buffer.from('{"t":1}').toString('base64url') }, 'cursor is not valid for this list'],
    [{ cursor: '' }, 'cursor is not valid for this list'],
    [{ cursor: 42 }, 'cursor is not valid for this list'],
    [{ q: 42 }, 'q must be a string of at most 200 characters'],
    [{ q: 'あ'.repeat(201) }, 'q must be a string of at most 200 characters'],
  ])('answers 400 for %j', async (body, error) => {
    const answer = await scope.call(reservationsList, body)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ success: false, error })
  })

  it('streams the whole list: the body arrives in parts, the JSON is the spec answer', async () => {
    const response = await reservationsList.handler(
      jsonRequest(reservationsList.path, {}, { token: reservationsList.token }),
      scope.context(),
    )
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const reader = response.body!.getReader()
    const parts: Uint8Array[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      parts.push(read.value)
    }
    expect(parts.length).toBeGreaterThan(2)
    const text = Buffer.concat(parts).toString('utf8')
    expect(JSON.parse(text)).toEqual({ success: true, reservations: active })
  })

  it('answers 400 naming the paging fields when the whole list is too large for one answer', async () => {
    const limited = defineEndpoint(activeListEndpoint(reservationResource, { maxRecords: 500 }))
    const bytes = defineEndpoint(activeListEndpoint(reservationResource, { maxBytes: 10_000 }))
    for (const handler of [limited, bytes]) {
      const answer = await scope.call({ ...reservationsList, handler }, {})
      expect(answer.status).toBe(400)
      expect(answer.body).toEqual({
        success: false,
        error: `this list has ${active.length} records, too many for one answer; send pageSize (at most 500) and follow nextCursor`,
      })
      const page = await scope.call({ ...reservationsList, handler }, { pageSize: 500 })
      expect(page.body.reservations).toHaveLength(500)
    }
  })

  it('answers the too-large 400 from the index counts of a cold instance, reading no base', async () => {
    const limited = defineEndpoint(activeListEndpoint(reservationResource, { maxRecords: 500 }))
    clearInstanceIndexes()
    const before = server.operations.length
    const answer = await scope.call({ ...reservationsList, handler: limited }, {})
    expect(answer.body).toEqual({
      success: false,
      error: `this list has ${active.length} records, too many for one answer; send pageSize (at most 500) and follow nextCursor`,
    })
    const baseReads = server.operations
      .slice(before)
      .filter((op) => op.type === 'get' && decodeURIComponent(op.url).includes('/v1/p/'))
    expect(baseReads).toEqual([])
    const pending = active.filter((record) => record.status === 'pending')
    const byStatus = defineEndpoint(
      activeListEndpoint(reservationResource, { maxRecords: pending.length - 1 }),
    )
    const filtered = await scope.call(
      { ...reservationsList, handler: byStatus },
      {
        status: 'pending',
      },
    )
    expect(filtered.body.error).toBe(
      `this list has ${pending.length} records, too many for one answer; send pageSize (at most 500) and follow nextCursor`,
    )
  })

  it('counts by reading the records when a base predates the active/archived tallies', async () => {
    // a base as written before those tallies: the same entries, counted by status and product
    const key = 'index/reservations/v1/p/red-mug'
    const found = await readBase(scope.store, 'old-writer', key)
    if (found === null || 'damaged' in found) throw new Error('no base of red-mug')
    const oldTally: Tally = (record) => {
      const { status, productSlug } = record as Reservation
      return [`status:${status}`, `product:${productSlug}`]
    }
    expect(
      await writeBase(scope.store, 'old-writer', key, found.entries, found.etag, oldTally),
    ).not.toBeNull()
    clearInstanceIndexes()
    const limited = defineEndpoint(activeListEndpoint(reservationResource, { maxRecords: 500 }))
    const answer = await scope.call({ ...reservationsList, handler: limited }, {})
    expect(answer.body.error).toBe(
      `this list has ${active.length} records, too many for one answer; send pageSize (at most 500) and follow nextCursor`,
    )
    const whole = await scope.call(reservationsList, {})
    expect(whole.body.reservations).toEqual(active)
  })

  it('archive pages take q too, most recently archived first', async () => {
    const first = await scope.call(archivesList, { pageSize: 100 })
    const second = await scope.call(archivesList, { page: 2, pageSize: 100 })
    expect(first.body.total).toBe(archived.length)
    expect([...first.body.reservations, ...second.body.reservations]).toEqual(archived)
    const found = await scope.call(archivesList, { q: 'サトウ', pageSize: 100 })
    expect(found.body.reservations).toEqual(
      archived.filter((record) => record.name.startsWith('さとう')),
    )
  })
})

describe('paging the notify list', () => {
  it('finds a subscription by its e-mail in any case and pages the rest', async () => {
    const scope = isolatedScope()
    const seeded = await mapWithConcurrency(Array.from({ length: 30 }), 10, (_, index) =>
      scope.seedSubscription({ email: `fan${index}@example.com`, createdAt: at(index) }),
    )
    const found = await scope.call(notifyList, { q: 'FAN7@EXAMPLE' })
    expect(found.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([seeded[7].id])
    const first = await scope.call(notifyList, { pageSize: 20 })
    const second = await scope.call(notifyList, { pageSize: 20, cursor: first.body.nextCursor })
    expect([...first.body.subscriptions, ...second.body.subscriptions]).toEqual(
      [...seeded].reverse(),
    )
    expect(second.body.nextCursor).toBeNull()
  })
})
