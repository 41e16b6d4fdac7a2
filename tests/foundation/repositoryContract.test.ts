import { beforeEach, describe, expect, it } from 'vitest'
import { getStore, type Store } from '@netlify/blobs'
import {
  clearInstanceIndexes,
  RecordUpdateConflictError,
  type RecordCollection,
  type RecordCollectionOptions,
} from '../../src/lib/storage/recordCollection.js'
import {
  historyRepository,
  reservationRepository,
  subscriptionRepository,
} from '../../src/lib/storage/repositories.js'
import type {
  NotificationHistory,
  NotifySubscription,
  Reservation,
} from '../../src/lib/storage/records.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/**
 * One contract, run against every repository (unstorage style): what any record repository must
 * do, whatever its key layout.
 */
interface RepositoryCase<T extends { id: string }, Ref> {
  name: string
  open(store: Store, options?: Partial<RecordCollectionOptions>): RecordCollection<T, Ref>
  make(index: number, group?: string): T
  refOf(record: T): Ref
  change(record: T): T
}

const reservationCase: RepositoryCase<Reservation, { id: string; productSlug: string }> = {
  name: 'reservationRepository',
  open: (store, options) => reservationRepository(store, optionsFor(store, options)),
  make: (i, group = 'kyusu') => ({
    id: `res_${crypto.randomUUID()}`,
    name: `客 ${i}`,
    email: `c${i}@example.jp`,
    productSlug: group,
    status: 'pending',
    notes: '',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    respondedAt: null,
  }),
  refOf: ({ id, productSlug }) => ({ id, productSlug }),
  change: (r) => ({ ...r, status: 'confirmed', respondedAt: '2026-02-01T00:00:00.000Z' }),
}

const subscriptionCase: RepositoryCase<NotifySubscription, { id: string; productSlug: string }> = {
  name: 'subscriptionRepository',
  open: (store, options) => subscriptionRepository(store, optionsFor(store, options)),
  make: (i, group = 'kyusu') => ({
    id: `ntf_${Date.now()}-${i}${Math.random().toString(36).slice(2, 8)}`,
    email: `s${i}@example.jp`,
    productSlug: group,
    status: 'pending',
    createdAt: new Date().toISOString(),
    notifiedAt: null,
  }),
  refOf: ({ id, productSlug }) => ({ id, productSlug }),
  change: (s) => ({ ...s, status: 'notified', notifiedAt: '2026-02-01T00:00:00.000Z' }),
}

const historyCase: RepositoryCase<NotificationHistory, { id: string }> = {
  name: 'historyRepository',
  open: (store, options) => historyRepository(store, optionsFor(store, options)),
  make: (i, group = 'kyusu') => ({
    id: `notif_${crypto.randomUUID()}`,
    productSlug: group,
    emailTitle: `入荷 ${i}`,
    emailBody: 'body',
    recipientEmails: [`r${i}@example.jp`],
    sentCount: 1,
    timestamp: new Date().toISOString(),
    status: 'sent',
    failedRecipients: [],
  }),
  refOf: ({ id }) => ({ id }),
  change: (h) => ({ ...h, status: 'failed', sentCount: 0 }),
}

/** Options of a repository on `store`: one cache scope per test store, as one per Blobs environment. */
function optionsFor(
  store: Store,
  options: Partial<RecordCollectionOptions> = {},
): RecordCollectionOptions {
  return { scope: scopes.get(store) ?? 'unscoped', ...options }
}
const scopes = new WeakMap<Store, string>()
function newStore(prefix: string): Store {
  const store = getStore({ name: `${prefix}-${crypto.randomUUID()}`, consistency: 'strong' })
  scopes.set(store, crypto.randomUUID())
  return store
}

const server = useBlobsServer()

function runContract<T extends { id: string }, Ref>(testCase: RepositoryCase<T, Ref>) {
  describe(testCase.name, () => {
    let store: Store
    let repo: RecordCollection<T, Ref>
    beforeEach(() => {
      store = newStore('contract')
      repo = testCase.open(store)
    })

    it('returns null for a record that does not exist', async () => {
      expect(await repo.get(testCase.refOf(testCase.make(1)))).toBeNull()
    })

    it('creates, reads back, updates and removes a record', async () => {
      const record = testCase.make(1)
      expect(await repo.create(testCase.refOf(record), record)).toBe(true)
      expect(await repo.get(testCase.refOf(record))).toEqual(record)
      expect(await repo.create(testCase.refOf(record), testCase.change(record))).toBe(false)
      expect(await repo.get(testCase.refOf(record))).toEqual(record)
      const changed = testCase.change(record)
      expect(await repo.update(testCase.refOf(record), testCase.change)).toEqual(changed)
      expect(await repo.get(testCase.refOf(record))).toEqual(changed)
      expect(await repo.remove(testCase.refOf(record))).toBe(true)
      expect(await repo.get(testCase.refOf(record))).toBeNull()
      expect(await repo.remove(testCase.refOf(record))).toBe(false)
    })

    it('lists every record, and sees changes and removals on the next list', async () => {
      const records = Array.from({ length: 12 }, (_, i) => testCase.make(i))
      for (const record of records) await repo.create(testCase.refOf(record), record)
      expect(sortById((await repo.list()).records)).toEqual(sortById(records))

      const changed = testCase.change(records[3])
      await repo.update(testCase.refOf(changed), testCase.change)
      await repo.remove(testCase.refOf(records[5]))
      const fresh = testCase.open(store)
      const expected = records.filter((_, i) => i !== 5).map((r, i) => (i === 3 ? changed : r))
      expect(sortById((await repo.list()).records)).toEqual(sortById(expected))
      expect(sortById((await fresh.list()).records)).toEqual(sortById(expected))
    })

    it('refuses refs that would escape the key layout', async () => {
      const record = testCase.make(1)
      const bad = { ...testCase.refOf(record), id: '../../etc' } as Ref
      expect(await repo.get(bad)).toBeNull()
      await expect(repo.create(bad, record)).rejects.toThrow()
      expect(await repo.update(bad, testCase.change)).toBeNull()
      expect(await repo.remove(bad)).toBe(false)
    })

    it('keeps all of 100 simultaneous creates for one group', async () => {
      const records = Array.from({ length: 100 }, (_, i) => testCase.make(i, 'same-product'))
      await Promise.all(records.map((record) => repo.create(testCase.refOf(record), record)))
      expect((await repo.list()).records).toHaveLength(100)
    })

    it('keeps all of 20 simultaneous updates of different records', async () => {
      const records = Array.from({ length: 20 }, (_, i) => testCase.make(i))
      for (const record of records) await repo.create(testCase.refOf(record), record)
      await repo.list()
      const changed = records.map(testCase.change)
      await Promise.all(
        records.map((record) => repo.update(testCase.refOf(record), testCase.change)),
      )
      expect(sortById((await repo.list()).records)).toEqual(sortById(changed))
      for (const record of changed) expect(await repo.get(testCase.refOf(record))).toEqual(record)
    })

    it('keeps other records when records are removed at the same time', async () => {
      const records = Array.from({ length: 30 }, (_, i) => testCase.make(i))
      await Promise.all(records.map((record) => repo.create(testCase.refOf(record), record)))
      const [gone, kept] = [records.slice(0, 15), records.slice(15)]
      const more = Array.from({ length: 10 }, (_, i) => testCase.make(100 + i))
      await Promise.all([
        ...gone.map((record) => repo.remove(testCase.refOf(record))),
        ...more.map((record) => repo.create(testCase.refOf(record), record)),
      ])
      expect(sortById((await repo.list()).records)).toEqual(sortById([...kept, ...more]))
    })

    it('applies every one of 10 simultaneous updates of one record (none lost)', async () => {
      const record = testCase.make(1)
      await repo.create(testCase.refOf(record), record)
      const marks = Array.from({ length: 10 }, (_, i) => `mark-${i}`)
      const results = await Promise.allSettled(
        marks.map((mark) =>
          repo.update(testCase.refOf(record), (current) => ({
            ...current,
            marks: [...((current as { marks?: string[] }).marks ?? []), mark],
          })),
        ),
      )
      const applied = marks.filter((_, i) => results[i].status === 'fulfilled')
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toBeInstanceOf(RecordUpdateConflictError)
        }
      }
      const stored = (await repo.get(testCase.refOf(record))) as { marks?: string[] }
      expect([...(stored.marks ?? [])].sort()).toEqual(applied.sort())
      expect(applied.length).toBeGreaterThan(0)
    })

    it('gives up on a record that changes under every attempt: a conflict error, nothing lost', async () => {
      const record = testCase.make(1)
      await repo.create(testCase.refOf(record), record)
      let competitorWrites = 0
      // why: another request writes the record between each read and write of this update
      const contested = new Proxy(store, {
        get(target, property, receiver) {
          if (property !== 'setJSON') return Reflect.get(target, property, receiver)
          return async (key: string, value: unknown, options?: { onlyIfMatch?: string }) => {
            if (options?.onlyIfMatch) {
              competitorWrites += 1
              await target.setJSON(key, { ...record, competitorWrites })
            }
            return target.setJSON(key, value, options as never)
          }
        },
      })
      const update = testCase
        .open(contested)
        .update(testCase.refOf(record), (current) => ({ ...current, mine: true }))
      await expect(update).rejects.toBeInstanceOf(RecordUpdateConflictError)
      expect(await repo.get(testCase.refOf(record))).toEqual({ ...record, competitorWrites: 5 })
    })

    it('keeps a deleted record deleted when updates race the delete', async () => {
      const records = Array.from({ length: 20 }, (_, i) => testCase.make(i))
      for (const record of records) await repo.create(testCase.refOf(record), record)
      const outcomes = await Promise.all(
        records.flatMap((record) => [
          repo.update(testCase.refOf(record), testCase.change).catch(() => 'conflict'),
          repo.remove(testCase.refOf(record)),
          repo.update(testCase.refOf(record), testCase.change).catch(() => 'conflict'),
        ]),
      )
      expect(outcomes.filter((outcome) => outcome === true)).toHaveLength(20)
      for (const record of records) expect(await repo.get(testCase.refOf(record))).toBeNull()
      expect((await repo.list()).records).toEqual([])
    })

    it('skips blobs that are not records, reports their keys, and can still delete them', async () => {
      const good = testCase.make(1)
      await repo.create(testCase.refOf(good), good)
      const damaged = [testCase.make(2), testCase.make(3), testCase.make(4), testCase.make(5)]
      const contents = ['', 'not json {', JSON.stringify([1, 2]), JSON.stringify({ id: 7 })]
      for (const [index, record] of damaged.entries()) {
        await repo.create(testCase.refOf(record), record)
        const [key] = (await store.list()).blobs
          .map((blob) => blob.key)
          .filter((key) => key.endsWith(record.id))
        await store.set(key, contents[index])
      }
      const unreadable: string[] = []
      const watched = testCase.open(store, { onUnreadable: (key) => unreadable.push(key) })
      const listing = await watched.list()
      expect(listing.records).toEqual([good])
      expect(listing.unreadableKeys).toHaveLength(4)
      expect(new Set(unreadable)).toEqual(new Set(listing.unreadableKeys))
      expect(await watched.get(testCase.refOf(damaged[0]))).toBeNull()
      expect(await watched.update(testCase.refOf(damaged[1]), testCase.change)).toBeNull()
      expect(await watched.remove(testCase.refOf(damaged[2]))).toBe(true)
      expect((await watched.list()).unreadableKeys).toHaveLength(3)
    })
  })
}

describe('listing snapshot', () => {
  // why: records changed in the last 10 s are always read again; a reader's clock a minute ahead
  // of the writer's makes the snapshot path (the one production uses for settled data) the one
  // under test. Fixed clocks inside one hour: the journal is read by hourly folder, so a reader a
  // minute ahead across the end of an hour skipped the writer's folder (real clocks of two
  // instances differ by far less than the 10 s a change takes to settle)
  const writtenAt = Date.UTC(2026, 10, 22, 12, 20)
  const writerClock = { now: () => writtenAt }
  const later = () => writtenAt + 60_000

  it('reads only changed records once a snapshot exists, in this and a fresh instance', async () => {
    const store = newStore('snapshot')
    const pending: Promise<unknown>[] = []
    const options = { now: later, defer: (work: Promise<unknown>) => void pending.push(work) }
    const repo = reservationRepository(store, optionsFor(store, options))
    const writer = reservationRepository(store, optionsFor(store, writerClock))
    const records = Array.from({ length: 40 }, (_, i) => reservationCase.make(i))
    for (const r of records) await writer.create(reservationCase.refOf(r), r)

    server.operations.length = 0
    expect((await repo.list()).records).toHaveLength(40)
    expect(server.operations.filter((op) => op.type === 'get').length).toBeGreaterThanOrEqual(40)
    await Promise.all(pending)

    const changed = reservationCase.change(records[7])
    await writer.update(reservationCase.refOf(changed), () => changed)
    await writer.remove(reservationCase.refOf(records[9]))

    server.operations.length = 0
    const listed = (await repo.list()).records
    expect(listed).toHaveLength(39)
    expect(listed.find((r) => r.id === changed.id)).toEqual(changed)
    const gets = server.operations.filter((op) => op.type === 'get')
    expect(gets.length).toBeLessThanOrEqual(2)
    await Promise.all(pending)

    clearInstanceIndexes()
    server.operations.length = 0
    const another = reservationRepository(store, optionsFor(store, { now: later }))
    expect(sortById((await another.list()).records)).toEqual(sortById(listed))
    expect(server.operations.filter((op) => op.type === 'get').length).toBeLessThanOrEqual(2)
  })

  it('reads a record written within the last seconds again, whatever its etag says', async () => {
    const store = newStore('snapshot')
    const repo = reservationRepository(store, optionsFor(store))
    const record = reservationCase.make(1)
    await repo.create(reservationCase.refOf(record), record)
    await repo.list()
    server.operations.length = 0
    await repo.list()
    expect(server.operations.filter((op) => op.type === 'get')).toHaveLength(1)
  })
})

function sortById<T extends { id: string }>(records: T[]): T[] {
  return [...records].sort((a, b) => a.id.localeCompare(b.id))
}

runContract(reservationCase)
runContract(subscriptionCase)
runContract(historyCase)

describe('product-scoped listing', () => {
  it('lists one product without the others', async () => {
    const store = newStore('contract')
    const repo = reservationRepository(store, optionsFor(store))
    const a = [reservationCase.make(1, 'tea-bowl'), reservationCase.make(2, 'tea-bowl')]
    const b = [reservationCase.make(3, 'tea-bowl-large')]
    for (const r of [...a, ...b]) await repo.create(reservationCase.refOf(r), r)
    expect(sortById((await repo.listProduct('tea-bowl')).records)).toEqual(sortById(a))
    expect((await repo.listProduct('tea')).records).toEqual([])
    expect((await repo.listProduct('../x')).records).toEqual([])
  })
})
