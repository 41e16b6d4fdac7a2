import { describe, expect, it } from 'vitest'
import { reservationResource } from '../../src/lib/reservations/reservationResource.js'
import { subscriptionResource } from '../../src/lib/subscriptions/subscriptionResource.js'
import { runBulkAction } from '../../src/lib/admin/bulkRecords.js'
import { updateRecordStatus } from '../../src/lib/admin/statusUpdates.js'
import type { Logger } from '../../src/lib/log.js'
import {
  reservationRepository,
  subscriptionRepository,
} from '../../src/lib/storage/repositories.js'
import { openStore } from '../../src/lib/storage/blobStore.js'
import type { ProductRecordRef } from '../../src/lib/storage/records.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { reservation, subscription } from './adminTestKit.js'

useBlobsServer()

let stores = 0
function freshStore() {
  return openStore(`bulk-unit-${++stores}`, { deploy: { context: 'dev' } })
}

function recordingLog() {
  const errors: { event: string; error: unknown; fields: unknown }[] = []
  const log: Logger = {
    requestId: 'test',
    info: () => undefined,
    warn: () => undefined,
    error: (event, error, fields) => errors.push({ event, error, fields }),
  }
  return { log, errors }
}

describe('runBulkAction', () => {
  it('a store failure on one item is reported and logged; the others are still processed', async () => {
    const repository = reservationRepository(freshStore())
    const records = [reservation(), reservation(), reservation()]
    for (const record of records) await repository.create(record, record)
    const failing = records[1]
    const realRemove = repository.remove.bind(repository)
    repository.remove = async (ref: ProductRecordRef) => {
      if (ref.id === failing.id) throw new Error('blob store unavailable')
      return realRemove(ref)
    }
    const { log, errors } = recordingLog()

    const result = await runBulkAction(reservationResource, repository, 'delete', records, {
      log,
      now: Date.now,
    })

    expect(result).toEqual({
      doneIds: [records[0].id, records[2].id],
      errors: [{ id: failing.id, error: 'Failed to delete reservation' }],
    })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({
      event: 'admin.reservation.delete.failed',
      fields: { id: failing.id, productSlug: failing.productSlug },
    })
    expect(await repository.get(records[0])).toBeNull()
    expect(await repository.get(failing)).toEqual(failing)
  })

  it('a failing write while archiving a subscription says Failed to archive subscription', async () => {
    const repository = subscriptionRepository(freshStore())
    const record = subscription()
    await repository.create(record, record)
    repository.update = async () => {
      throw new Error('write refused')
    }
    const { log, errors } = recordingLog()
    const result = await runBulkAction(subscriptionResource, repository, 'archive', [record], {
      log,
      now: Date.now,
    })
    expect(result).toEqual({
      doneIds: [],
      errors: [{ id: record.id, error: 'Failed to archive subscription' }],
    })
    expect(errors).toHaveLength(1)
  })

  it('archivedAt comes from the injected clock', async () => {
    const repository = subscriptionRepository(freshStore())
    const record = subscription()
    await repository.create(record, record)
    await runBulkAction(subscriptionResource, repository, 'archive', [record], {
      log: recordingLog().log,
      now: () => Date.parse('2031-02-03T04:05:06.000Z'),
    })
    expect(await repository.get(record)).toEqual({
      ...record,
      isArchived: true,
      archivedAt: '2031-02-03T04:05:06.000Z',
    })
  })
})

describe('updateRecordStatus', () => {
  it('respondedAt and notifiedAt come from the injected clock', async () => {
    const now = () => Date.parse('2031-02-03T04:05:06.000Z')
    const reservations = reservationRepository(freshStore())
    const pending = reservation()
    await reservations.create(pending, pending)
    const updated = await updateRecordStatus(
      reservationResource,
      reservations,
      { id: pending.id, productSlug: pending.productSlug, status: 'confirmed' },
      { now },
    )
    expect(updated.respondedAt).toBe('2031-02-03T04:05:06.000Z')

    const subscriptions = subscriptionRepository(freshStore())
    const waiting = subscription()
    await subscriptions.create(waiting, waiting)
    const notified = await updateRecordStatus(
      subscriptionResource,
      subscriptions,
      { id: waiting.id, productSlug: waiting.productSlug, status: 'notified' },
      { now },
    )
    expect(notified.notifiedAt).toBe('2031-02-03T04:05:06.000Z')
  })
})
