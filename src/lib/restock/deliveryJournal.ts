import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { openStore, RECORDS_STORE, type DeployInfo } from '../storage/blobStore.js'
import type { NotificationHistory } from '../storage/records.js'
import type { HistoryRepository } from '../storage/repositories.js'

/**
 * Progress of one restock delivery, kept beside the history record so that a delivery can stop
 * at its time budget and continue in another invocation. Every blob has one writer:
 * `notif-delivery/{id}/job` is written once by the send, `notif-delivery/{id}/batches/{n}` once
 * by whoever delivered batch n. Nothing is ever read, changed and written back.
 */

/** The §2.3 history record plus the delivery fields this service adds (documented in docs/decisions-local.md). */
export interface RestockHistory extends NotificationHistory {
  /** `queued` → `delivering` → `complete`. Absent on records written before delivery existed. */
  deliveryState?: 'queued' | 'delivering' | 'complete'
  /** `email` when Resend delivers, `record-only` when no provider is configured (§4.8). */
  deliveryMode?: 'email' | 'record-only'
  /** When the last batch was settled. */
  completedAt?: string
}

export interface DeliveryRecipient {
  subscriptionId: string
  email: string
}

/** The immutable snapshot of what to send to whom. */
export interface DeliveryJob {
  notificationId: string
  productSlug: string
  emailTitle: string
  emailBody: string
  recipients: DeliveryRecipient[]
  createdAt: string
}

/** What happened to one batch. */
export interface BatchRecord {
  batch: number
  deliveredIds: string[]
  failed: { subscriptionId: string; email: string; error: string }[]
  finishedAt: string
}

const PREFIX = 'notif-delivery'
const READ_CONCURRENCY = 50

export class DeliveryJournal {
  readonly #store: Store

  constructor(store: Store) {
    this.#store = store
  }

  async saveJob(job: DeliveryJob): Promise<void> {
    await this.#store.setJSON(`${PREFIX}/${job.notificationId}/job`, job)
  }

  async getJob(notificationId: string): Promise<DeliveryJob | null> {
    return (await this.#store.get(`${PREFIX}/${notificationId}/job`, {
      type: 'json',
    })) as DeliveryJob | null
  }

  async saveBatch(notificationId: string, record: BatchRecord): Promise<void> {
    await this.#store.setJSON(`${PREFIX}/${notificationId}/batches/${record.batch}`, record)
  }

  /** Numbers of the batches already settled (one key listing, no reads). */
  async settledBatches(notificationId: string): Promise<Set<number>> {
    const prefix = `${PREFIX}/${notificationId}/batches/`
    const settled = new Set<number>()
    for await (const page of this.#store.list({ prefix, paginate: true })) {
      for (const { key } of page.blobs) {
        const batch = Number(key.slice(prefix.length))
        if (Number.isInteger(batch)) settled.add(batch)
      }
    }
    return settled
  }

  /** Every settled batch, in batch order. */
  async listBatches(notificationId: string): Promise<BatchRecord[]> {
    const numbers = [...(await this.settledBatches(notificationId))].sort((a, b) => a - b)
    const records = await mapWithConcurrency(numbers, READ_CONCURRENCY, (batch) =>
      this.#store.get(`${PREFIX}/${notificationId}/batches/${batch}`, { type: 'json' }),
    )
    return records.filter(Boolean) as BatchRecord[]
  }
}

export function openDeliveryJournal(context: DeployInfo): DeliveryJournal {
  return new DeliveryJournal(openStore(RECORDS_STORE, context))
}

/** Writes a history record with its delivery fields (the repository is typed to the §2.3 fields). */
export function saveHistory(history: HistoryRepository, record: RestockHistory): Promise<void> {
  return history.save({ id: record.id }, record)
}
