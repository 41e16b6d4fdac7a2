import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { getStore, type Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { timeViewKeys } from '../../src/lib/storage/blobLayout.js'
import { foldForSearch, searchText } from '../../src/lib/storage/listing/recordSearch.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { NotificationHistory, Reservation } from '../../src/lib/storage/records.js'
import {
  historyRepository,
  reservationRepository,
  type ListPageQuery,
  type ReservationRepository,
} from '../../src/lib/storage/repositories.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/**
 * The time view of the lists and the counters kept at every write (storage/listing/timeView.ts,
 * recordCounters.ts): records at a segment boundary, writers whose clocks disagree, a record
 * moved between products, and 50 writers at once. Time is each repository's clock; the Blobs
 * server is real.
 */

useBlobsServer()

const T0 = Date.UTC(2026, 10, 24, 3, 0)
const SETTLED = 11_000

function reservation(i: number, overrides: Partial<Reservation> = {}): Reservation {
  return {
    id: `res_${String(i).padStart(6, '0')}`,
    name: `客 ${i}`,
    email: `c${i}@example.jp`,
    productSlug: 'kyusu',
    status: 'pending',
    notes: '',
    createdAt: new Date(T0 + i * 1000).toISOString(),
    respondedAt: null,
    ...overrides,
  }
}

function newStore(): Store {
  return getStore({ name: `time-${crypto.randomUUID()}`, consistency: 'strong' })
}

/** A repository with its own clock and small segments, whose background work is collected. */
function open(store: Store, clock: { now: number }, scope = 'time-test') {
  const pending: Promise<unknown>[] = []
  const repo = reservationRepository(store, {
    scope,
    now: () => clock.now,
    defer: (work) => void pending.push(work),
    maxSegment: 3,
    maxChunk: 4,
  })
  return { repo, settle: () => Promise.all(pending) }
}

/** Every page of the active list, 2 at a time, by cursor: the ids in the order answered. */
async function pagedIds(repo: ReservationRepository, status?: string): Promise<string[]> {
  const ids: string[] = []
  let after: { time: string; id: string } | null = null
  for (let pages = 0; pages < 50; pages++) {
    const query: ListPageQuery = { list: 'active', status, start: { after }, limit: 2 }
    const page = await repo.page(query)
    if (!page) throw new Error('the time view did not answer')
    ids.push(...page.records.map((record) => record.id))
    const last = page.records.at(-1)
    if (!page.more || !last) return ids
    after = { time: last.createdAt, id: last.id }
  }
  throw new Error('more than 50 pages')
}

/** What the per-product index answers: the same list, sorted newest first by the spec's order. */
async function indexedIds(repo: ReservationRepository): Promise<string[]> {
  const { records } = await repo.list()
  return records
    .filter((record) => record.isArchived !== true)
    .sort((a, b) =>
      a.createdAt === b.createdAt
        ? b.id.localeCompare(a.id)
        : b.createdAt.localeCompare(a.createdAt),
    )
    .map((record) => record.id)
}

/** Folds every product once the deltas have settled, so the view holds every write. */
async function foldAll(repo: ReservationRepository, clock: { now: number }, products: string[]) {
  clock.now += SETTLED
  for (const product of products) await repo.fold(product)
}

describe('the time view', () => {
  it('pages records that share the boundary time of two segments exactly once, in order', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    // why: segments hold 3; four records share one time, so a cut falls next to it
    const same = new Date(T0 + 5000).toISOString()
    const records = [
      ...[1, 2, 3, 4].map((i) => reservation(i)),
      ...[5, 6, 7, 8].map((i) => reservation(i, { createdAt: same })),
      ...[9, 10, 11].map((i) => reservation(i)),
    ]
    for (const record of records) await repo.create(record, record)
    expect(await repo.page({ list: 'active', start: { after: null }, limit: 2 })).not.toBeNull()
    await foldAll(repo, clock, ['kyusu'])
    clearInstanceIndexes()
    const paged = await pagedIds(repo)
    expect(paged).toEqual(await indexedIds(repo))
    expect(new Set(paged).size).toBe(records.length)
    const searched = await repo.page({
      list: 'active',
      needle: 'c6@',
      start: { offset: 0 },
      limit: 5,
    })
    expect(searched?.records.map((record) => record.id)).toEqual(['res_000006'])
    await settle()
  })

  it('orders by the records’ times whatever the clocks of their writers say', async () => {
    const store = newStore()
    const early = { now: T0 }
    // why: instance clocks agree within the settle time (10 s); this one is 5 s ahead
    const late = { now: T0 + 5_000 }
    const a = open(store, early, 'writer-a')
    const b = open(store, late, 'writer-b')
    for (let i = 1; i <= 8; i++) {
      const record = reservation(i)
      await (i % 2 ? a.repo : b.repo).create(record, record)
    }
    expect(await a.repo.page({ list: 'active', start: { after: null }, limit: 2 })).not.toBeNull()
    await foldAll(a.repo, early, ['kyusu'])
    await foldAll(b.repo, late, ['kyusu'])
    const expected = [8, 7, 6, 5, 4, 3, 2, 1].map((i) => reservation(i).id)
    expect(await pagedIds(a.repo)).toEqual(expected)
    expect(await pagedIds(b.repo)).toEqual(expected)
    await Promise.all([a.settle(), b.settle()])
  })

  it('shows a record moved to another product once, before and after the folds', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    const records = [1, 2, 3, 4, 5].map((i) => reservation(i))
    for (const record of records) await repo.create(record, record)
    expect(await repo.page({ list: 'active', start: { after: null }, limit: 2 })).not.toBeNull()
    await foldAll(repo, clock, ['kyusu'])
    const moved = { ...records[2], productSlug: 'chawan' }
    await repo.remove(records[2])
    await repo.create(moved, moved)
    const ids = records.map((record) => record.id).reverse()
    expect(await pagedIds(repo)).toEqual(ids)
    await foldAll(repo, clock, ['kyusu', 'chawan'])
    clearInstanceIndexes()
    expect(await pagedIds(repo)).toEqual(ids)
    const counts = await repo.groupCounts()
    const byProduct = Object.fromEntries(
      ['kyusu', 'chawan'].map((product) => [
        product,
        (counts ?? [])
          .filter((group) => group.values.product === product)
          .reduce((sum, group) => sum + group.count, 0),
      ]),
    )
    expect(byProduct).toEqual({ kyusu: 4, chawan: 1 })
    await settle()
  })
})

/** Names whose search rows JSON writes with escapes, or whose bytes hold another query's. */
const AWKWARD_NAMES = [
  '引用符"入り',
  'バック\\スラッシュ',
  'an\\nnex',
  '制御\u0001文字',
  '制御\u0002"引用',
  'ﾀﾅｶ ｲﾁﾛｳ',
  'たなか　いちろう',
  '絵文字😀さん',
  'nnn',
  '\ud83d孤立',
]

/** Queries of every kind: letters an escape is written with, escapes, kana forms, addresses. */
const QUERIES = [
  'n',
  'nn',
  '\\',
  '\\n',
  '"',
  'u0001',
  '\u0001',
  'タナカイチロウ',
  'ﾀﾅｶ',
  '😀',
  '\ud83d',
  'C3@',
  'RES_00000',
  'example.jp',
  '],[',
  ']}',
  ',0,',
  '',
]

/** What a scan of every record finds for `q`: ids newest first and how many. */
function expectedFound(records: Reservation[], q: string, status?: string) {
  const needle = foldForSearch(q)
  const ids = records
    .filter((record) => searchText(record).includes(needle))
    .filter((record) => status === undefined || record.status === status)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((record) => record.id)
  return { ids, total: ids.length }
}

async function searched(repo: ReservationRepository, q: string, status?: string) {
  const page = await repo.page({
    list: 'active',
    status,
    needle: foldForSearch(q),
    start: { offset: 0 },
    limit: 50,
  })
  if (!page) throw new Error('the time view did not answer')
  return { ids: page.records.map((record) => record.id), total: page.total }
}

describe('a search of the time view', () => {
  const records = AWKWARD_NAMES.map((name, i) =>
    reservation(i + 1, { name, status: i % 2 ? 'confirmed' : 'pending' }),
  )

  it('finds what a scan of every record finds, whatever the names hold', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    for (const record of records.slice(0, -1)) await repo.create(record, record)
    expect(await repo.page({ list: 'active', start: { after: null }, limit: 2 })).not.toBeNull()
    await foldAll(repo, clock, ['kyusu'])
    clearInstanceIndexes()
    // why: the last record is a pending write, not yet in the search rows
    await repo.create(records.at(-1)!, records.at(-1)!)
    for (const q of QUERIES) {
      expect({ q, ...(await searched(repo, q)) }).toEqual({ q, ...expectedFound(records, q) })
      expect({ q, ...(await searched(repo, q, 'confirmed')) }).toEqual({
        q,
        ...expectedFound(records, q, 'confirmed'),
      })
    }
    await settle()
  })

  it('reads search rows written by another JSON writer (letters escaped, keys reordered, spaces)', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    for (const record of records) await repo.create(record, record)
    expect(await repo.page({ list: 'active', start: { after: null }, limit: 2 })).not.toBeNull()
    await foldAll(repo, clock, ['kyusu'])
    const catalog = (await store.get(timeViewKeys.catalog('reservations'), { type: 'json' })) as {
      chunks: { key: string }[]
    }
    expect(catalog.chunks.length).toBeGreaterThan(1)
    for (const [index, { key }] of catalog.chunks.entries()) {
      const packed = (await store.get(key, { type: 'arrayBuffer' })) as ArrayBuffer
      const value = JSON.parse(gunzipSync(Buffer.from(packed)).toString('utf8')) as object
      const { rows } = value as { rows: unknown }
      // why: keys in the order written, or another order with spaces
      const text =
        index % 2
          ? JSON.stringify({ rows, format: 1 }, null, 1)
          : JSON.stringify({ format: 1, rows })
      const escaped = text.replace(
        /[^\n -~]/g,
        (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
      )
      const repacked = gzipSync(escaped)
      const end = repacked.byteOffset + repacked.length
      await store.set(key, repacked.buffer.slice(repacked.byteOffset, end) as ArrayBuffer)
    }
    clearInstanceIndexes()
    for (const q of QUERIES) {
      expect({ q, ...(await searched(repo, q)) }).toEqual({ q, ...expectedFound(records, q) })
    }
    await settle()
  })
})

describe('a batch of writes', () => {
  it('is seen by a one-product list through its one delta before any fold', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    const records = Array.from({ length: 5 }, (_, i) => reservation(i + 1))
    for (const record of records) await repo.create(record, record)
    await repo.fold('kyusu')
    clock.now += SETTLED
    await repo.fold('kyusu')
    await repo.listProduct('kyusu')
    const written = await repo.updateMany(records.slice(0, 3), (current) => ({
      ...current,
      status: 'confirmed',
    }))
    expect(written?.entries.size).toBe(3)
    // why: a fresh instance holds nothing: it knows the batch only from the delta's listing
    const reader = open(store, clock, 'time-test-reader').repo
    const { records: listed } = await reader.listProduct('kyusu')
    expect(listed.filter((record) => record.status === 'confirmed').length).toBe(3)
    const deltas = await store.list({ prefix: 'index-deltas/reservations/kyusu/' })
    expect(deltas.blobs.map(({ key }) => key)).toEqual([
      expect.stringMatching(/~~[0-9a-f]{64}$/) as unknown as string,
    ])
    await settle()
  })
})

describe('the counters', () => {
  it('count exactly what 50 simultaneous writers did', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    // why: an empty collection's counters are made exact before the writers start
    expect(await repo.groupCounts()).toEqual([])
    const records = Array.from({ length: 50 }, (_, i) =>
      reservation(i + 1, { productSlug: i % 2 ? 'kyusu' : 'chawan' }),
    )
    await mapWithConcurrency(records, 50, (record) => repo.create(record, record))
    await mapWithConcurrency(records.slice(0, 20), 50, (record) =>
      repo.update(record, (current) => ({ ...current, status: 'confirmed' })),
    )
    const counts = await repo.groupCounts()
    const total = (status: string) =>
      (counts ?? [])
        .filter((group) => group.values.status === status)
        .reduce((sum, group) => sum + group.count, 0)
    expect({ pending: total('pending'), confirmed: total('confirmed') }).toEqual({
      pending: 30,
      confirmed: 20,
    })
    const units = (counts ?? []).reduce((sum, group) => sum + (group.sums.units ?? 0), 0)
    expect(units).toBe(50)
    await settle()
  })

  it('keep every notice line of 50 simultaneous writers in the history’s one shard', async () => {
    const store = newStore()
    const pending: Promise<unknown>[] = []
    const history = historyRepository(store, {
      scope: 'history-test',
      now: () => T0,
      defer: (work) => void pending.push(work),
    })
    expect(await history.groupCounts()).toEqual([])
    const notices = Array.from({ length: 50 }, (_, i): NotificationHistory => ({
      id: `notif_${String(i).padStart(4, '0')}`,
      productSlug: i % 2 ? 'kyusu' : 'chawan',
      ...(i % 5 === 0 ? { variant: 'm' } : {}),
      emailTitle: '再入荷',
      emailBody: '',
      recipientEmails: [],
      sentCount: 0,
      timestamp: new Date(T0 + i * 1000).toISOString(),
      status: 'sent',
      failedRecipients: [],
      deliveryState: 'queued',
      deliveryMode: 'email',
    }))
    await mapWithConcurrency(notices, 50, (notice) => history.create(notice, notice))
    // a delivery run's batches settle on the records at the same time
    await mapWithConcurrency(notices, 50, (notice, i) =>
      history.update(notice, (current) => ({
        ...current,
        sentCount: i,
        failedRecipients: i % 3 ? [] : [{ email: `f${i}@example.jp`, error: 'bounced' }],
        deliveryState: 'complete',
      })),
    )
    const lines = (await history.groupCounts({ completing: false })) ?? []
    expect(lines.length).toBe(50)
    expect(lines.every((line) => line.count === 1)).toBe(true)
    const byId = new Map(lines.map((line) => [line.values.id, line]))
    notices.forEach((notice, i) => {
      const line = byId.get(notice.id)
      expect(line?.values).toMatchObject({
        timestamp: notice.timestamp,
        product: notice.productSlug,
        variant: notice.variant ?? '',
        state: JSON.stringify(['sent', 'complete', 'email']),
      })
      expect(line?.sums).toEqual({ sent: i, failed: i % 3 ? 0 : 1 })
    })
    await Promise.all(pending)
  })
})
