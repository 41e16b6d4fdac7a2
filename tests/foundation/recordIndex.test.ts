import { describe, expect, it } from 'vitest'
import { getStore, type Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import { rebuildIndexes, verifyIndexes } from '../../src/lib/storage/listing/indexMaintenance.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { reservationRepository } from '../../src/lib/storage/repositories.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/**
 * The per-partition record index (storage/listing/recordIndex.ts): folds, writers that die,
 * deletes, writes around the service, the rebuild's checkpoints and the cost of a warm list.
 * Time is each repository's clock; the Blobs server is real.
 */

const server = useBlobsServer()

const T0 = Date.UTC(2026, 10, 24, 3, 0)
const SETTLED = 11_000

function reservation(i: number, productSlug = 'kyusu'): Reservation {
  return {
    id: `res_${String(i).padStart(6, '0')}`,
    name: `客 ${i}`,
    email: `c${i}@example.jp`,
    productSlug,
    status: 'pending',
    notes: '',
    createdAt: new Date(T0 + i).toISOString(),
    respondedAt: null,
  }
}

function newStore(): Store {
  return getStore({ name: `index-${crypto.randomUUID()}`, consistency: 'strong' })
}

/** A repository with its own clock and scope, whose background folds are collected. */
function open(store: Store, clock: { now: number }) {
  const pending: Promise<unknown>[] = []
  const repo = reservationRepository(store, {
    scope: 'index-test',
    now: () => clock.now,
    defer: (work) => void pending.push(work),
  })
  return { repo, settle: () => Promise.all(pending) }
}

/** A store with `count` records of one product, created, listed and folded (no deltas left). */
async function folded(count: number) {
  const store = newStore()
  const clock = { now: T0 }
  const { repo } = open(store, clock)
  const records = Array.from({ length: count }, (_, i) => reservation(i + 1))
  for (const record of records) await repo.create(record, record)
  await repo.list()
  clock.now += SETTLED
  await repo.fold('kyusu')
  return { store, clock, repo, records }
}

async function keysUnder(store: Store, prefix: string): Promise<string[]> {
  return (await store.list({ prefix })).blobs.map((blob) => blob.key)
}

function requests() {
  return server.operations.length
}

describe('folds', () => {
  it('folds settled deltas into the base and deletes them; concurrent folds lose nothing', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo } = open(store, clock)
    const records = Array.from({ length: 60 }, (_, i) => reservation(i))
    await Promise.all(records.map((r) => repo.create(r, r)))
    expect((await repo.list()).records).toHaveLength(60)
    const changed = records.slice(0, 30).map((r) => ({ ...r, status: 'confirmed' }))
    await Promise.all(changed.map((r) => repo.update(r, () => r)))
    clock.now += SETTLED
    const folds = await Promise.all(Array.from({ length: 5 }, () => repo.fold('kyusu')))
    expect(folds).toContain(true)
    await repo.fold('kyusu')
    expect(await keysUnder(store, 'index-deltas/')).toEqual([])
    clearInstanceIndexes()
    const listed = (await repo.list()).records
    expect(listed.filter((r) => r.status === 'confirmed')).toHaveLength(30)
    expect(listed).toHaveLength(60)
  })

  it('keeps deltas younger than the settle time, and reads their records on every list', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo } = open(store, clock)
    const record = reservation(1)
    await repo.create(record, record)
    await repo.list()
    await repo.update(record, (r) => ({ ...r, status: 'confirmed' }))
    await repo.fold('kyusu')
    expect(await keysUnder(store, 'index-deltas/')).toHaveLength(2)
    expect((await repo.listProduct('kyusu')).records[0].status).toBe('confirmed')
    clock.now += SETTLED
    await repo.fold('kyusu')
    expect(await keysUnder(store, 'index-deltas/')).toEqual([])
    clearInstanceIndexes()
    expect((await repo.listProduct('kyusu')).records[0].status).toBe('confirmed')
  })

  it('a writer that died between its delta and its record write leaves nothing behind', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo } = open(store, clock)
    const kept = reservation(1)
    await repo.create(kept, kept)
    await repo.list()
    // why: the delta is written, the record never is
    await repo.index.announce('reservations/kyusu/res_never')
    expect((await repo.list()).records).toEqual([kept])
    clock.now += SETTLED
    await repo.fold('kyusu')
    expect(await keysUnder(store, 'index-deltas/')).toEqual([])
    clearInstanceIndexes()
    expect((await repo.list()).records).toEqual([kept])
  })

  it('a delete removes the record from the list at once and from the base at the fold', async () => {
    const { store, clock, repo, records } = await folded(2)
    const [a, b] = records
    await repo.remove(a)
    expect((await repo.list()).records).toEqual([b])
    clock.now += SETTLED
    await repo.fold('kyusu')
    const base = (await store.get('index/reservations/v1/p/kyusu', { type: 'json' })) as {
      entries: Record<string, unknown>
    }
    expect(Object.keys(base.entries)).toEqual(['reservations/kyusu/res_000002'])
    expect((await repo.counts()).records).toBe(1)
  })
})

describe('the verifier', () => {
  it('picks up a record written and one deleted around the service', async () => {
    const { store, clock, repo, records } = await folded(2)
    const [a, b] = records
    // why: an edit in the Netlify UI or by a script writes no delta
    const outside = { ...reservation(3), name: '外から' }
    await store.setJSON(`reservations/kyusu/${outside.id}`, outside)
    await store.setJSON(`reservations/kyusu/${a.id}`, { ...a, status: 'cancelled' })
    await store.delete(`reservations/kyusu/${b.id}`)
    expect((await repo.list()).records).toHaveLength(2)
    const outcome = await verifyIndexes(store, [repo.index], {
      now: () => clock.now,
      deadline: clock.now + 1,
    })
    expect(outcome).toEqual({ verified: 1, incomplete: false })
    clearInstanceIndexes()
    const listed = (await repo.list()).records.sort((x, y) => x.id.localeCompare(y.id))
    expect(listed).toEqual([{ ...a, status: 'cancelled' }, outside])
    expect((await repo.counts()).tallies).toMatchObject({ 'status:cancelled': 1 })
  })
})

/** Writes `count` records of `products` products straight into the store (no deltas: old data). */
async function writeStraight(store: Store, count: number, products: number): Promise<void> {
  await mapWithConcurrency(
    Array.from({ length: count }, (_, i) => i),
    50,
    async (i) => {
      const r = reservation(i, `product-${i % products}`)
      await store.setJSON(`reservations/${r.productSlug}/${r.id}`, r)
    },
  )
}

describe('a missing index', () => {
  it('answers what exists with rebuilding, never reading every record, until the rebuild ends', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo } = open(store, clock)
    await writeStraight(store, 400, 4)
    const fresh = reservation(9999, 'product-0')
    await repo.create(fresh, fresh)
    const before = requests()
    const listing = await repo.list()
    expect(requests() - before).toBeLessThan(20)
    expect(listing.rebuilding).toBe(true)
    expect(listing.records).toEqual([fresh])
    expect((await repo.counts()).rebuilding).toBe(true)

    // why: a run that dies (here: its store fails) after two partitions keeps them
    let written = 0
    const dying = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== 'setJSON') return Reflect.get(target, property, receiver)
        return async (key: string, value: unknown, options?: object) => {
          if (key.startsWith('index/reservations/v1/p/') && ++written > 2) throw new Error('died')
          return target.setJSON(key, value, options as never)
        }
      },
    })
    const dyingRepo = reservationRepository(dying, { scope: 'dying', now: () => clock.now })
    const options = (owner: string) => ({
      now: () => clock.now,
      deadline: clock.now + 60_000,
      owner,
    })
    await expect(rebuildIndexes(dying, [dyingRepo.index], options('first'))).rejects.toThrow()
    const built = await keysUnder(store, 'index/reservations/v1/p/')
    expect(built).toHaveLength(2)
    expect((await repo.list()).rebuilding).toBe(true)
    expect(await rebuildIndexes(store, [repo.index], options('retry'))).toBe('busy')
    clock.now += 3 * 60_000 + 1
    expect(
      await rebuildIndexes(store, [repo.index], { ...options('late'), deadline: clock.now }),
    ).toBe('continue')

    const readsBefore = server.operations.filter((op) => op.type === 'get').length
    expect(await rebuildIndexes(store, [repo.index], options('second'))).toBe('complete')
    const reads = server.operations.filter((op) => op.type === 'get').length - readsBefore
    // why: the second run reads only the two partitions the first did not finish
    expect(reads).toBeLessThan(250)
    const done = await repo.list()
    expect(done.rebuilding).toBeUndefined()
    expect(done.records).toHaveLength(401)
    expect((await repo.counts()).records).toBe(401)
  })

  it('lets one rebuild run at a time; a dead run’s claim lapses', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo } = open(store, clock)
    await writeStraight(store, 310, 2)
    await store.setJSON('index-rebuild/claim', { owner: 'dead', until: T0 + 60_000 })
    const options = { now: () => clock.now, deadline: T0 + 10 * 60_000, owner: 'next' }
    expect(await rebuildIndexes(store, [repo.index], options)).toBe('busy')
    clock.now += 61_000
    expect(await rebuildIndexes(store, [repo.index], options)).toBe('complete')
    expect((await repo.list()).records).toHaveLength(310)
  })
})

describe('cost', () => {
  it('a warm list after 2,000 folded updates of one product takes < 20 blob requests', async () => {
    const store = newStore()
    const clock = { now: T0 }
    const { repo, settle } = open(store, clock)
    const records = Array.from({ length: 100 }, (_, i) => reservation(i))
    await mapWithConcurrency(records, 50, (r) => repo.create(r, r))
    await repo.list()
    for (let round = 0; round < 20; round++) {
      await mapWithConcurrency(records, 50, (r) =>
        repo.update(r, (current) => ({ ...current, notes: `round ${round}` })),
      )
      clock.now += SETTLED
      await repo.fold('kyusu')
    }
    await repo.list()
    await settle()
    const before = requests()
    const listed = await repo.list()
    expect(requests() - before).toBeLessThan(20)
    expect(listed.records.every((r) => r.notes === 'round 19')).toBe(true)
    clearInstanceIndexes()
    const coldBefore = requests()
    expect((await repo.listProduct('kyusu')).records).toHaveLength(100)
    expect(requests() - coldBefore).toBeLessThan(5)
  }, 120_000)
})

describe('scan', () => {
  it('visits every record once, pending deltas included, and keeps no base it read', async () => {
    const { store, clock, repo, records } = await folded(40)
    const other = reservation(100, 'chawan')
    const changed = { ...records[0], status: 'confirmed' }
    await repo.update(records[0], () => changed)
    await repo.create(other, other)
    await store.set('reservations/kyusu/res_broken', 'not a record')
    await repo.index.announce('reservations/kyusu/res_broken')
    clearInstanceIndexes()
    const seen: Reservation[] = []
    const scanned = await repo.scan((record) => seen.push(record))
    expect(seen).toHaveLength(41)
    expect(new Set(seen.map((record) => record.id)).size).toBe(41)
    expect(seen.find((record) => record.id === changed.id)?.status).toBe('confirmed')
    expect(scanned.unreadableKeys).toEqual(['reservations/kyusu/res_broken'])
    expect(scanned.rebuilding).toBeUndefined()
    // the next list reads the bases again: the scan kept none of them
    clock.now += 1
    const before = server.operations.length
    await repo.list()
    const baseReads = server.operations
      .slice(before)
      .filter((op) => op.type === 'get' && decodeURIComponent(op.url).includes('/v1/p/'))
    expect(baseReads.length).toBeGreaterThan(0)
  })
})
