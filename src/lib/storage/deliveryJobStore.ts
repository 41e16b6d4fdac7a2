import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { deliveryKeys, spentTicketKey } from './blobLayout.js'

/**
 * What one restock delivery sends to whom, and how far it got, kept beside the history record so
 * that a delivery can stop at its time budget and continue in another invocation. Every blob is
 * written once and never changed (keys: blobLayout.ts `deliveryKeys`): the job by the send, batch
 * n by whoever settled it, and batch n's "marked" blob once its recipients are marked `notified`
 * (all `onlyIfNew`, so a second writer of the same blob leaves the first one's); a spent delivery
 * ticket, by the run it started. A batch recorded but not marked is one whose run died in between.
 */

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

/** What the settled batches of a delivery add up to. */
export interface SettledBatches {
  /** Recipients whose e-mail the provider accepted. */
  sentCount: number
  /** Recipients whose e-mail the provider refused, with why. */
  failedRecipients: { email: string; error: string }[]
  /** When the last batch was settled (ISO), or null before the first. */
  lastBatchAt: string | null
}

export function summarizeBatches(batches: readonly BatchRecord[]): SettledBatches {
  const summary: SettledBatches = { sentCount: 0, failedRecipients: [], lastBatchAt: null }
  for (const batch of batches) {
    summary.sentCount += batch.deliveredIds.length
    for (const { email, error } of batch.failed) summary.failedRecipients.push({ email, error })
    if (summary.lastBatchAt === null || batch.finishedAt > summary.lastBatchAt) {
      summary.lastBatchAt = batch.finishedAt
    }
  }
  return summary
}

const READ_CONCURRENCY = 50

export class DeliveryJobStore {
  readonly #store: Store

  constructor(store: Store) {
    this.#store = store
  }

  /** Stores the job; false when the notification already has one (it is never replaced). */
  async saveJob(job: DeliveryJob): Promise<boolean> {
    const key = deliveryKeys.job(job.notificationId)
    return (await this.#store.setJSON(key, job, { onlyIfNew: true })).modified
  }

  /** The job, or null when there is none or its blob is damaged (then nothing can be delivered). */
  async getJob(notificationId: string): Promise<DeliveryJob | null> {
    const text = await this.#store.get(deliveryKeys.job(notificationId), { type: 'text' })
    const job = parseObject(text) as DeliveryJob | null
    return job && Array.isArray(job.recipients) && typeof job.productSlug === 'string' ? job : null
  }

  /** Records a settled batch; a batch settled before keeps its first record. */
  async saveBatch(notificationId: string, record: BatchRecord): Promise<void> {
    const key = deliveryKeys.batch(notificationId, record.batch)
    await this.#store.setJSON(key, record, { onlyIfNew: true })
  }

  /** Numbers of the batches already settled (one key listing, no reads). */
  settledBatches(notificationId: string): Promise<Set<number>> {
    return this.#batchNumbers(deliveryKeys.batchesPrefix(notificationId))
  }

  /** Records that batch `batch`'s delivered recipients are marked `notified`. */
  async saveMarked(notificationId: string, batch: number): Promise<void> {
    await this.#store.setJSON(
      deliveryKeys.marked(notificationId, batch),
      { batch },
      { onlyIfNew: true },
    )
  }

  /** Numbers of the batches whose recipients are marked (one key listing, no reads). */
  markedBatches(notificationId: string): Promise<Set<number>> {
    return this.#batchNumbers(deliveryKeys.markedPrefix(notificationId))
  }

  async #batchNumbers(prefix: string): Promise<Set<number>> {
    const numbers = new Set<number>()
    for await (const page of this.#store.list({ prefix, paginate: true })) {
      for (const { key } of page.blobs) {
        const batch = Number(key.slice(prefix.length))
        if (Number.isInteger(batch)) numbers.add(batch)
      }
    }
    return numbers
  }

  /** Every settled batch whose record is readable (a damaged one is left out), in batch order. */
  async listBatches(notificationId: string): Promise<BatchRecord[]> {
    const numbers = [...(await this.settledBatches(notificationId))].sort((a, b) => a - b)
    const texts = await mapWithConcurrency(numbers, READ_CONCURRENCY, (batch) =>
      this.#store.get(deliveryKeys.batch(notificationId, batch), { type: 'text' }),
    )
    return texts.map(parseObject).filter(isBatchRecord)
  }

  /**
   * Spends a delivery ticket: true the first time its nonce is seen, false for a replay. The
   * blob keeps when the ticket expires, so old ones can be told apart from live ones.
   */
  async spendTicket(nonce: string, expiresAt: number, now: number): Promise<boolean> {
    const spent = {
      spentAt: new Date(now).toISOString(),
      expiresAt: new Date(expiresAt).toISOString(),
    }
    return (await this.#store.setJSON(spentTicketKey(nonce), spent, { onlyIfNew: true })).modified
  }
}

function parseObject(text: string | null): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text ?? '')
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function isBatchRecord(
  value: Record<string, unknown> | null,
): value is BatchRecord & Record<string, unknown> {
  return (
    value !== null &&
    Number.isInteger(value.batch) &&
    Array.isArray(value.deliveredIds) &&
    Array.isArray(value.failed) &&
    typeof value.finishedAt === 'string'
  )
}
