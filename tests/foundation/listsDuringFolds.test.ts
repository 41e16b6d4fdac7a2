import { describe, expect, it } from 'vitest'
import { getStore, type Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../../src/lib/concurrency.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { reservationRepository } from '../../src/lib/storage/repositories.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/**
 * A list read while folds take in the writes just made (storage/listing/partitionIndex.ts,
 * timeView.ts): a fold writes its base and the time view's catalog, then deletes the deltas it
 * folded. Whichever blob request of the reader the folds land before, the list holds every
 * record written before it began. Each moment is forced: the reader's store runs the folds of
 * every product before that one request (after every request the reader already sent has been
 * answered). Time is each repository's clock; the Blobs server is real.
 */

useBlobsServer()

const T0 = Date.UTC(2026, 10, 24, 3, 0)
// why: the folds delete only deltas older than the settle time (10 s)
const SETTLED = 11_000
const PRODUCTS = ['kyusu', 'chawan', 'yunomi', 'sara']
const WRITES = 30

function reservation(i: number): Reservation {
  return {
    id: `res_${String(i).padStart(6, '0')}`,
    name: `客 ${i}`,
    email: `c${i}@example.jp`,
    productSlug: PRODUCTS[i % PRODUCTS.length],
    status: 'pending',
    notes: '',
    createdAt: new Date(T0 + i * 1000).toISOString(),
    respondedAt: null,
  }
}

/** A repository of its own (as a request's instance is), with its clock; background work collected. */
function open(store: Store, clock: { now: number }, scope: string) {
  const pending: Promise<unknown>[] = []
  const repo = reservationRepository(store, {
    scope,
    now: () => clock.now,
    defer: (work) => void pending.push(work),
  })
  return { repo, settle: () => Promise.all(pending) }
}

/** Which request of the reader the folds run before: its method and the key or prefix it names. */
type Moment = (method: string, key: string) => boolean

/**
 * `store` whose first request that `moment` picks waits, before it is sent, for every request
 * sent before it to be answered (a listing: read to its end) and then for `folds`.
 */
function foldingBefore(store: Store, moment: Moment, folds: () => Promise<void>): Store {
  let armed = true
  const inFlight = new Set<Promise<unknown>>()
  const before = async (method: string, key: string, self?: Promise<unknown>) => {
    if (!armed || !moment(method, key)) return
    armed = false
    await Promise.allSettled([...inFlight].filter((request) => request !== self))
    await folds()
  }
  const track = <T>(request: Promise<T>): Promise<T> => {
    inFlight.add(request)
    void request.then(
      () => inFlight.delete(request),
      () => inFlight.delete(request),
    )
    return request
  }
  return new Proxy(store, {
    get(target, name) {
      const value: unknown = Reflect.get(target, name)
      if (typeof value !== 'function') return value
      const call = (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(target, args)
      if (name === 'list') {
        return (options?: { prefix?: string; paginate?: boolean }) => {
          const prefix = options?.prefix ?? ''
          if (!options?.paginate) return track(before('list', prefix).then(() => call(options)))
          let finish = () => undefined as void
          const finished = track(new Promise<void>((resolve) => (finish = resolve)))
          return (async function* () {
            try {
              await before('list', prefix, finished)
              yield* call(options) as AsyncIterable<unknown>
            } finally {
              finish()
            }
          })()
        }
      }
      return (...args: unknown[]) =>
        track(before(String(name), String(args[0])).then(() => call(...args)))
    },
  })
}

/**
 * A shop whose list view and counters are complete (read once while it was empty), then
 * WRITES records created at once by writers of their own, whose deltas have settled.
 */
async function writtenAtOnce() {
  const store = getStore({ name: `folds-${crypto.randomUUID()}`, consistency: 'strong' })
  const clock = { now: T0 }
  const first = open(store, clock, 'first-reader')
  const empty = await first.repo.page({ list: 'active', start: { after: null }, limit: 50 })
  expect(empty).toMatchObject({ records: [], total: 0 })
  const records = Array.from({ length: WRITES }, (_, i) => reservation(i + 1))
  await mapWithConcurrency(records, WRITES, (record) =>
    open(store, clock, `writer-${record.id}`).repo.create(record, record),
  )
  clock.now += SETTLED
  await first.settle()
  const folds = async () => {
    const folder = open(store, clock, 'folder').repo
    expect(await Promise.all(PRODUCTS.map((product) => folder.fold(product)))).toEqual(
      PRODUCTS.map(() => true),
    )
  }
  const newestFirst = records.map((record) => record.id).reverse()
  return { store, clock, folds, newestFirst }
}

const DELTAS = 'index-deltas/reservations/'
const CATALOG = 'index/reservations/t1/catalog'
const BASES = 'index/reservations/'

describe('a list read while the folds of the writes before it run', () => {
  const pageMoments: [string, Moment][] = [
    ['listing the pending deltas', (method, key) => method === 'list' && key.startsWith(DELTAS)],
    ['reading the catalog', (method, key) => method === 'getWithMetadata' && key === CATALOG],
  ]
  for (const [moment, at] of pageMoments) {
    it(`answers every record on the first page when the folds land before ${moment}`, async () => {
      const { store, clock, folds, newestFirst } = await writtenAtOnce()
      const reader = open(foldingBefore(store, at, folds), clock, 'reader')
      const page = await reader.repo.page({ list: 'active', start: { after: null }, limit: 50 })
      expect(page?.records.map((record) => record.id)).toEqual(newestFirst)
      expect(page?.total).toBe(WRITES)
      await reader.settle()
    })
  }

  it('finds a record by its id when the folds land before the deltas are listed', async () => {
    const { store, clock, folds } = await writtenAtOnce()
    const at: Moment = (method, key) => method === 'list' && key.startsWith(DELTAS)
    const reader = open(foldingBefore(store, at, folds), clock, 'reader')
    expect((await reader.repo.findById('res_000007'))?.id).toBe('res_000007')
    await reader.settle()
  })

  const indexMoments: [string, Moment][] = [
    ['listing the pending deltas', (method, key) => method === 'list' && key.startsWith(DELTAS)],
    [
      'listing the bases',
      (method, key) => method === 'list' && key.startsWith(BASES) && !key.startsWith(DELTAS),
    ],
  ]
  for (const [moment, at] of indexMoments) {
    it(`lists every record of the index when the folds land before ${moment}`, async () => {
      const { store, clock, folds, newestFirst } = await writtenAtOnce()
      const reader = open(foldingBefore(store, at, folds), clock, 'reader')
      const { records } = await reader.repo.list()
      expect(
        records
          .map((record) => record.id)
          .sort()
          .reverse(),
      ).toEqual(newestFirst)
      await reader.settle()
    })

    it(`counts every record of the index when the folds land before ${moment}`, async () => {
      const { store, clock, folds } = await writtenAtOnce()
      const reader = open(foldingBefore(store, at, folds), clock, 'reader')
      expect((await reader.repo.counts()).records).toBe(WRITES)
      await reader.settle()
    })
  }

  it('lists every record of one product when the folds land before its deltas are listed', async () => {
    const { store, clock, folds, newestFirst } = await writtenAtOnce()
    const at: Moment = (method, key) => method === 'list' && key.startsWith(`${DELTAS}kyusu/`)
    const reader = open(foldingBefore(store, at, folds), clock, 'reader')
    const { records } = await reader.repo.listProduct('kyusu')
    const kyusu = newestFirst.filter(
      (id) => reservation(Number(id.slice(4))).productSlug === 'kyusu',
    )
    expect(
      records
        .map((record) => record.id)
        .sort()
        .reverse(),
    ).toEqual(kyusu)
    await reader.settle()
  })
})
