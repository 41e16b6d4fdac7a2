import type { Store } from '@netlify/blobs'
import { getStore } from '@netlify/blobs'
import { describe, expect, it } from 'vitest'
import {
  claimAndCreate,
  claimRecord,
  type ClaimedCreateOptions,
  type HolderState,
} from '../../src/lib/storage/recordClaims.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/** How old a claim whose record never appeared must be to be taken over (storage/recordClaims.ts). */
const CLAIM_WRITE_GRACE_MS = 3_000

useBlobsServer()

const KEY = 'claims/product/pair'
let counter = 0

/** A claim over an in-memory set of records with given states; ids are fresh each call. */
function contender(
  store: Store,
  records: Map<string, HolderState>,
  extra: Partial<ClaimedCreateOptions> = {},
): ClaimedCreateOptions {
  return {
    store,
    key: KEY,
    holderState: async ({ holderId }) => records.get(holderId) ?? 'missing',
    newId: () => `rec-${++counter}`,
    create: async (id) => void records.set(id, 'live'),
    remove: async (id) => void records.delete(id),
    now: Date.now,
    ...extra,
  }
}

function freshStore(): Store {
  return getStore({ name: `claims-${crypto.randomUUID()}`, consistency: 'strong' })
}

async function claimBlob(store: Store) {
  return store.get(KEY, { type: 'json' }) as Promise<{ holderId: string; claimedAt: string }>
}

describe('claimRecord / claimAndCreate', () => {
  it('wins when nothing holds the key, and writes the claim', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const outcome = await claimAndCreate(contender(store, records))
    expect(outcome.won).toBe(true)
    expect(records.get(outcome.holderId)).toBe('live')
    expect((await claimBlob(store)).holderId).toBe(outcome.holderId)
  })

  it('answers a live holder without writing', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const first = await claimAndCreate(contender(store, records))
    const before = await store.getMetadata(KEY)
    const second = await claimAndCreate(contender(store, records))
    expect(second).toEqual({ holderId: first.holderId, won: false })
    expect((await store.getMetadata(KEY))?.etag).toBe(before?.etag)
  })

  it('replaces a holder that ended', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const first = await claimAndCreate(contender(store, records))
    records.set(first.holderId, 'ended')
    const second = await claimAndCreate(contender(store, records))
    expect(second.won).toBe(true)
    expect(second.holderId).not.toBe(first.holderId)
  })

  it('waits for the record of a young claim (its winner is storing it) and answers it', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    await store.setJSON(KEY, { holderId: 'in-flight', claimedAt: new Date().toISOString() })
    const waiting = claimAndCreate(contender(store, records))
    setTimeout(() => records.set('in-flight', 'live'), 200)
    expect(await waiting).toEqual({ holderId: 'in-flight', won: false })
  })

  it('takes over a claim whose record never appeared within the grace time', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const old = new Date(Date.now() - CLAIM_WRITE_GRACE_MS - 1).toISOString()
    await store.setJSON(KEY, { holderId: 'abandoned', claimedAt: old })
    const outcome = await claimAndCreate(contender(store, records))
    expect(outcome.won).toBe(true)
    expect(outcome.holderId).not.toBe('abandoned')
  })

  it('replaces a damaged claim blob', async () => {
    const store = freshStore()
    await store.set(KEY, 'not json')
    const outcome = await claimAndCreate(contender(store, new Map()))
    expect(outcome.won).toBe(true)
  })

  it('adopts a live record that holds the key without a claim, and gives it the claim', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>([['imported', 'live']])
    const outcome = await claimAndCreate(
      contender(store, records, { adopt: async () => 'imported' }),
    )
    expect(outcome).toEqual({ holderId: 'imported', won: false })
    expect((await claimBlob(store)).holderId).toBe('imported')
  })

  it('lets exactly one of 100 simultaneous contenders win; all answer its id', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => claimAndCreate(contender(store, records))),
    )
    expect(outcomes.filter((outcome) => outcome.won)).toHaveLength(1)
    expect(new Set(outcomes.map((outcome) => outcome.holderId)).size).toBe(1)
    expect([...records.values()]).toEqual(['live'])
  })

  it('a winner whose claim was taken over while it stored its record withdraws that record', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    let takenOver = false
    const slow = contender(store, records, {
      create: async (id) => {
        records.set(id, 'live')
        if (takenOver) return
        takenOver = true
        // why: another signup took the key over while this winner stalled
        await store.setJSON(KEY, { holderId: 'newer', claimedAt: new Date().toISOString() })
        records.set('newer', 'live')
      },
    })
    const outcome = await claimAndCreate(slow)
    expect(outcome).toEqual({ holderId: 'newer', won: false })
    expect([...records.keys()]).toEqual(['newer'])
  })

  it('claimRecord alone never stores a record', async () => {
    const store = freshStore()
    const records = new Map<string, HolderState>()
    const outcome = await claimRecord(contender(store, records))
    expect(outcome.won).toBe(true)
    expect(records.size).toBe(0)
  })
})
