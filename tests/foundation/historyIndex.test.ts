import { describe, expect, it } from 'vitest'
import { getStore } from '@netlify/blobs'
import { rebuildIndexes } from '../../src/lib/storage/listing/indexMaintenance.js'
import { clearInstanceIndexes } from '../../src/lib/storage/recordCollection.js'
import type { NotificationHistory } from '../../src/lib/storage/records.js'
import { historyRepository } from '../../src/lib/storage/repositories.js'
import { useBlobsServer } from '../helpers/blobsServer.js'

/**
 * The history index (format v2): a history record lists its recipients, so the index is split
 * by the id's first hex digit (and `other` for ids the service did not make) rather than kept in
 * one partition, and the one-partition v1 index of older deploys is not read.
 */

useBlobsServer()

const T0 = Date.UTC(2026, 10, 24, 3, 0)

function notice(id: string, recipients: number): NotificationHistory {
  return {
    id,
    productSlug: 'kyusu',
    emailTitle: '再入荷',
    emailBody: '入荷しました',
    recipientEmails: Array.from({ length: recipients }, (_, i) => `r${i}@example.jp`),
    sentCount: recipients,
    timestamp: new Date(T0).toISOString(),
  } as NotificationHistory
}

describe('history index partitions', () => {
  it('splits records by id over 17 partitions; a v1 index is not read; the rebuild fills v2', async () => {
    const store = getStore({ name: `history-${crypto.randomUUID()}`, consistency: 'strong' })
    const clock = { now: T0 }
    // why: records written around the service (as before the upgrade), then the old v1 base
    const ids = [
      ...Array.from({ length: 40 }, () => `notif_${crypto.randomUUID()}`),
      'notif_hand-made',
    ]
    for (const id of ids) await store.setJSON(`notif-history:${id}`, notice(id, 3))
    await store.setJSON('index/notif-history/v1/p/all', {
      format: 1,
      entries: { 'notif-history:notif_gone': { etag: 'x', record: notice('notif_gone', 1) } },
    })
    await store.set('index/notif-history/v1/complete', '')

    const repo = historyRepository(store, { scope: 'history-test', now: () => clock.now })
    const before = await repo.list()
    expect(before.records.map((record) => record.id)).not.toContain('notif_gone')

    const done = await rebuildIndexes(store, [repo.index], {
      now: () => clock.now,
      deadline: clock.now + 60_000,
      owner: 'test',
    })
    expect(done).toBe('complete')
    clearInstanceIndexes()
    const after = await repo.list()
    expect(after.rebuilding).toBeUndefined()
    expect(after.records.map((record) => record.id).sort()).toEqual([...ids].sort())

    const bases = (await store.list({ prefix: 'index/notif-history/v2/p/' })).blobs.map((blob) =>
      blob.key.split('/').at(-1)!,
    )
    expect(bases).toContain('other')
    expect(bases.every((partition) => /^([0-9a-f]|other)$/.test(partition))).toBe(true)
    for (const partition of bases) {
      const base = (await store.get(`index/notif-history/v2/p/${partition}`, {
        type: 'json',
      })) as { entries: Record<string, unknown> }
      for (const key of Object.keys(base.entries)) {
        const id = key.slice('notif-history:'.length)
        expect(partition === 'other' ? id : id.charAt('notif_'.length)).toBe(
          partition === 'other' ? 'notif_hand-made' : partition,
        )
      }
    }
  })
})
