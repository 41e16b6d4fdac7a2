import { describe, expect, it } from 'vitest'
import { getStore } from '@netlify/blobs'
import { openStore, storeNameFor } from '../../src/lib/storage/blobStore.js'
import { ChangeJournal } from '../../src/lib/storage/listing/changeJournal.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { Reservation } from '../../src/lib/storage/records.js'
import { reservationRepository } from '../../src/lib/storage/repositories.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

useBlobsServer()

function reservation(productSlug = 'kyusu-tokoname'): Reservation {
  return {
    id: `res_${crypto.randomUUID()}`,
    name: '客',
    email: 'c@example.jp',
    productSlug,
    status: 'pending',
    notes: '',
    createdAt: new Date().toISOString(),
    respondedAt: null,
  }
}

describe('store names (D12)', () => {
  it('uses the plain name in production and a separate store in every other context', () => {
    expect(storeNameFor('shop-records', 'production')).toBe('shop-records')
    expect(storeNameFor('shop-records', 'deploy-preview')).toBe('shop-records--deploy-preview')
    expect(storeNameFor('shop-records', 'branch-deploy')).toBe('shop-records--branch-deploy')
    expect(storeNameFor('keyword-logs', 'production')).toBe('keyword-logs')
  })

  it('keeps a deploy preview from seeing production records', async () => {
    const production = reservationRepository(
      openStore('isolation', { deploy: { context: 'production' } }),
    )
    const preview = reservationRepository(
      openStore('isolation', { deploy: { context: 'deploy-preview' } }),
    )
    const record = reservation()
    await preview.create(record, record)
    expect(await preview.get(record)).toEqual(record)
    expect(await production.get(record)).toBeNull()
  })
})

describe('change journal', () => {
  const MINUTE = 60_000

  it('finds the entries of the hours asked for, and prunes old folders', async () => {
    const store = getStore({ name: `journal-${crypto.randomUUID()}` })
    const journal = new ChangeJournal(store, 'reservations')
    const now = Date.UTC(2026, 10, 22, 12, 30)
    await journal.announce('reservations/a/1', now - 3 * 24 * 60 * MINUTE)
    await journal.announce('reservations/a/2', now - 70 * MINUTE)
    await journal.announce('reservations/b/3', now - MINUTE)
    const recent = await journal.entriesBetween(now - 5 * MINUTE, now)
    expect(recent.map((entry) => entry.recordKey)).toEqual(['reservations/b/3'])
    const lastTwoHours = await journal.entriesBetween(now - 90 * MINUTE, now)
    expect(lastTwoHours.map((entry) => entry.recordKey).sort()).toEqual([
      'reservations/a/2',
      'reservations/b/3',
    ])
    expect(await journal.prune(now - 24 * 60 * MINUTE, 10)).toBe(1)
    const all = await journal.entriesBetween(now - 4 * 24 * 60 * MINUTE, now)
    expect(all.map((entry) => entry.recordKey).sort()).toEqual([
      'reservations/a/2',
      'reservations/b/3',
    ])
  })
})

describe('listing past the journal', () => {
  it('picks up a record written without the journal at the next full check', async () => {
    const store = getStore({ name: `outside-${crypto.randomUUID()}`, consistency: 'strong' })
    let clock = Date.now() + 60_000
    const repo = reservationRepository(store, { now: () => clock, fullCheckIntervalMs: 5 * 60_000 })
    const known = reservation()
    await reservationRepository(store).create(known, known)
    expect((await repo.list()).records).toHaveLength(1)

    // why: an edit made in the Netlify UI or by a script bypasses the journal
    const outside = reservation()
    await store.setJSON(`reservations/${outside.productSlug}/${outside.id}`, outside)
    clock += 60_000
    expect((await repo.list()).records).toHaveLength(1)
    clock += 5 * 60_000
    const listed = (await repo.list()).records
    expect(listed.map((r) => r.id).sort()).toEqual([known.id, outside.id].sort())
  })

  it('sees a change made by another instance right away through the journal', async () => {
    const store = getStore({ name: `instances-${crypto.randomUUID()}`, consistency: 'strong' })
    const first = reservationRepository(store)
    const second = reservationRepository(store)
    const record = reservation()
    await first.create(record, record)
    expect((await second.list()).records).toEqual([record])
    const confirmed = { ...record, status: 'confirmed' }
    await first.update(record, () => confirmed)
    expect((await second.list()).records).toEqual([confirmed])
    await first.remove(record)
    clearInstanceIndexes()
    expect((await second.list()).records).toEqual([])
  })
})
