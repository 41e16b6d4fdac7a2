import { describe, expect, it, vi } from 'vitest'
import { getStore } from '@netlify/blobs'
import { openStore, storeNameFor, storeScope } from '../../src/lib/storage/blobStore.js'
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

  it('scopes caches per Blobs environment without holding what names it', () => {
    const scopeIn = (environment: string): string => {
      vi.stubEnv('LOCAL_BLOBS_SERVER', environment)
      try {
        return storeScope('shop-records', { deploy: { context: 'production' } })
      } finally {
        vi.unstubAllEnvs()
      }
    }
    const environments = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ edgeURL: `http://127.0.0.1:${4000 + i}`, siteID: 'site', token: `t${i}` }),
    )
    const scopes = environments.map(scopeIn)
    expect(new Set(scopes).size).toBe(environments.length)
    expect(scopeIn(environments[7]!)).toBe(scopes[7])
    for (const scope of scopes) expect(scope).toMatch(/^shop-records@[0-9a-f]+$/)
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

describe('listing across instances', () => {
  it('sees a change made by another instance right away through the index deltas', async () => {
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
