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
 * One blob is changed: the progress record, the batches summed so far, by compare-and-swap.
 */

/**
 * Who sends the restock e-mails (特定電子メール法 Art. 4): the sender's name, a postal address and a
 * contact for complaints, as a job keeps them (compliance/senderIdentity.ts builds one from the
 * configuration).
 */
export interface SenderIdentity {
  name: string | null
  address: string | null
  contact: string | null
  /** The variables that are not set, in the order above. */
  missing: string[]
}

export interface DeliveryRecipient {
  subscriptionId: string
  /** The address; empty for a LINE recipient. */
  email: string
  /** The LINE user id of a LINE sign-up: pushed in LINE instead of e-mailed. Absent: e-mail. */
  lineUserId?: string
  /** The variant the subscriber waits for (its id); absent for a product without variants. */
  variant?: string
}

/** The immutable snapshot of what to send to whom. */
export interface DeliveryJob {
  notificationId: string
  productSlug: string
  /** The variant the notice is for (its id); absent for a whole product. */
  variant?: string
  emailTitle: string
  emailBody: string
  recipients: DeliveryRecipient[]
  /**
   * Recipients of the notice only recorded, not in `recipients` (no e-mail provider: the job
   * pushes the LINE recipients alone); counted in the history's `sentCount`. Absent: none.
   */
  recordedCount?: number
  createdAt: string
  /** Who sends it (特定電子メール法 Art. 4), fixed at the send so every batch says the same. */
  sender?: SenderIdentity
  /** Hours a unit is held for each recipient (お取り置き, storage/restockHolds.ts); absent: none. */
  holdHours?: number
}

/** What happened to one batch. */
export interface BatchRecord {
  batch: number
  deliveredIds: string[]
  failed: { subscriptionId: string; email: string; lineUserId?: string; error: string }[]
  finishedAt: string
}

/** Other workers kept changing the progress record; nothing is lost: the next fold counts on. */
export class ProgressContentionError extends Error {
  override name = 'ProgressContentionError'
  constructor(notificationId: string) {
    super(
      `The progress of delivery ${notificationId} kept changing while it was updated; the next batch (or a resume) counts on`,
    )
  }
}

/** Failed recipients the progress record names; the rest are counted (the batch records keep all). */
export const PROGRESS_FAILURE_SAMPLE = 100

/**
 * The progress record of a delivery: batches 0 … `foldedBatches` − 1 summed, so that a poll
 * reads one blob whatever the delivery's size. Derived from the batch records (the source of
 * truth), folded strictly in batch order, each batch once: it never goes back and never counts a
 * batch twice, whichever worker folds it, and one that died before folding leaves it to the next.
 */
export interface DeliveryProgressRecord {
  /** How many batches, from batch 0 on, are counted in. */
  foldedBatches: number
  /** Recipients whose e-mail the provider accepted. */
  sentCount: number
  /** Recipients whose e-mail the provider refused. */
  failedCount: number
  /** The first PROGRESS_FAILURE_SAMPLE of them, with why (the field name an erase looks for). */
  failed: { email: string; error: string }[]
  /** Batches with a failed recipient: where the whole list is read once the delivery completes. */
  failedBatches: number[]
  /** When the last batch counted was settled (ISO), or null before the first. */
  lastBatchAt: string | null
}

/** The progress record of a delivery no batch of which is counted yet. */
export const NO_PROGRESS: Readonly<DeliveryProgressRecord> = {
  foldedBatches: 0,
  sentCount: 0,
  failedCount: 0,
  failed: [],
  failedBatches: [],
  lastBatchAt: null,
}

// why: a fold conflicts only with another worker of the same delivery; a few tries settle it
const FOLD_ATTEMPTS = 8

const READ_CONCURRENCY = 50

export class DeliveryJobStore {
  readonly #store: Store
  /**
   * The progress record of each delivery as this instance last wrote it, with its ETag: the next
   * fold of a worker tries its compare-and-swap on it without reading (another writer's change
   * makes it fail, and the record is read).
   */
  readonly #written = new Map<string, { record: DeliveryProgressRecord; etag: string }>()

  constructor(store: Store) {
    this.#store = store
  }

  /** Stores the job; false when the notification already has one (it is never replaced). */
  async saveJob(job: DeliveryJob): Promise<boolean> {
    const key = deliveryKeys.job(job.notificationId)
    const metadata = { recipientCount: job.recipients.length }
    return (await this.#store.setJSON(key, job, { onlyIfNew: true, metadata })).modified
  }

  /** The job, or null when there is none or its blob is damaged (then nothing can be delivered). */
  async getJob(notificationId: string): Promise<DeliveryJob | null> {
    const text = await this.#store.get(deliveryKeys.job(notificationId), { type: 'text' })
    const job = parseObject(text) as DeliveryJob | null
    return job && Array.isArray(job.recipients) && typeof job.productSlug === 'string' ? job : null
  }

  /**
   * Whether the notification has a job and, when its metadata says, how many recipients: read
   * without the job itself (a job of 50,000 recipients is megabytes).
   */
  async jobSize(notificationId: string): Promise<{ recipientCount: number | null } | null> {
    const found = await this.#store.getMetadata(deliveryKeys.job(notificationId))
    if (!found) return null
    const count = found.metadata.recipientCount
    return { recipientCount: Number.isInteger(count) ? (count as number) : null }
  }

  /**
   * Records a settled batch and answers the batch's record: `record`, or the one another worker
   * settled it with first (a batch keeps its first record).
   */
  async saveBatch(notificationId: string, record: BatchRecord): Promise<BatchRecord> {
    const key = deliveryKeys.batch(notificationId, record.batch)
    if ((await this.#store.setJSON(key, record, { onlyIfNew: true })).modified) return record
    const stored = await this.#readBatch(notificationId, record.batch)
    return stored === 'missing' || stored === null ? record : stored
  }

  /** The progress record, or null before any batch was counted (or when it is damaged). */
  async getProgress(notificationId: string): Promise<DeliveryProgressRecord | null> {
    const text = await this.#store.get(deliveryKeys.progress(notificationId), { type: 'text' })
    return asProgress(parseObject(text))
  }

  /**
   * Counts in the progress record every settled batch after the ones it counts, in batch order,
   * up to the first batch not settled yet (or `batchCount`), by compare-and-swap; answers the
   * record as it then stands. Reads only the batches not counted yet (`known`: records the
   * caller holds, read from no blob). A damaged batch record counts as settled with nobody.
   */
  async foldProgress(
    notificationId: string,
    batchCount: number,
    known: readonly BatchRecord[] = [],
  ): Promise<DeliveryProgressRecord> {
    const key = deliveryKeys.progress(notificationId)
    const records = new Map(known.map((record) => [record.batch, record] as const))
    // why: a worker folding the batch it settled reads no batch after it: the one it sends next
    // is not settled (another worker's is counted by the next fold or the completion)
    const lastKnown = known.length > 0 ? Math.max(...records.keys()) : Infinity
    for (let attempt = 0; attempt < FOLD_ATTEMPTS; attempt++) {
      const held = attempt === 0 ? this.#written.get(notificationId) : undefined
      const found = held
        ? { current: held.record, etag: held.etag }
        : await this.#store.getWithMetadata(key, { type: 'text' }).then((read) => ({
            current: (read && asProgress(parseObject(read.data))) ?? NO_PROGRESS,
            etag: read?.etag,
          }))
      const { current } = found
      const next = {
        ...current,
        failed: [...current.failed],
        failedBatches: [...current.failedBatches],
      }
      while (next.foldedBatches < batchCount && next.foldedBatches <= lastKnown) {
        const batch = next.foldedBatches
        const record = records.get(batch) ?? (await this.#readBatch(notificationId, batch))
        if (record === 'missing') break
        if (record) records.set(batch, record)
        foldBatch(next, batch, record)
      }
      if (next.foldedBatches === current.foldedBatches && !held) return current
      if (next.foldedBatches === current.foldedBatches) continue
      const condition = found.etag ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
      const written = await this.#store.setJSON(key, next, condition)
      if (written.modified) {
        if (written.etag) this.#written.set(notificationId, { record: next, etag: written.etag })
        return next
      }
      this.#written.delete(notificationId)
    }
    throw new ProgressContentionError(notificationId)
  }

  /** Batch `batch`'s record; 'missing' when not settled, null when its blob is damaged. */
  async #readBatch(notificationId: string, batch: number): Promise<BatchRecord | null | 'missing'> {
    const text = await this.#store.get(deliveryKeys.batch(notificationId, batch), { type: 'text' })
    if (text === null) return 'missing'
    const value = parseObject(text)
    return isBatchRecord(value) ? value : null
  }

  /** The records of the given batches (a damaged or missing one is left out), in that order. */
  async readBatches(notificationId: string, batches: readonly number[]): Promise<BatchRecord[]> {
    const records = await mapWithConcurrency(batches, READ_CONCURRENCY, (batch) =>
      this.#readBatch(notificationId, batch),
    )
    return records.filter(
      (record): record is BatchRecord => record !== null && record !== 'missing',
    )
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

/** Counts batch `batch` (null: a damaged record, settled with nobody) in `progress`. */
function foldBatch(
  progress: DeliveryProgressRecord,
  batch: number,
  record: BatchRecord | null,
): void {
  progress.foldedBatches = batch + 1
  if (!record) return
  progress.sentCount += record.deliveredIds.length
  progress.failedCount += record.failed.length
  for (const { email, error } of record.failed) {
    if (progress.failed.length < PROGRESS_FAILURE_SAMPLE) progress.failed.push({ email, error })
  }
  if (record.failed.length > 0) progress.failedBatches.push(batch)
  if (progress.lastBatchAt === null || record.finishedAt > progress.lastBatchAt) {
    progress.lastBatchAt = record.finishedAt
  }
}

function asProgress(value: Record<string, unknown> | null): DeliveryProgressRecord | null {
  if (
    value === null ||
    !Number.isInteger(value.foldedBatches) ||
    typeof value.sentCount !== 'number' ||
    typeof value.failedCount !== 'number' ||
    !Array.isArray(value.failed) ||
    !Array.isArray(value.failedBatches)
  ) {
    return null
  }
  return value as unknown as DeliveryProgressRecord
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
