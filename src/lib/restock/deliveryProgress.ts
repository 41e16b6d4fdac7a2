import type { HistoryRepository } from '../storage/repositories.js'
import { BATCH_SIZE } from './deliverRestockNotification.js'
import { summarizeBatches, type DeliveryJobStore } from './deliveryJobStore.js'

/**
 * Where one restock delivery stands, read from its history record and its delivery job (nothing
 * is written here). Used by the resume endpoint and the scheduled resume.
 */
export interface DeliveryProgress {
  notificationId: string
  /** `queued` → `delivering` → `complete`; records written before delivery existed count as `complete`. */
  deliveryState: 'queued' | 'delivering' | 'complete'
  /** `email` (Resend) or `record-only` (no provider configured); null on old records. */
  deliveryMode: 'email' | 'record-only' | null
  recipientCount: number
  /** Recipients whose e-mail the provider accepted. */
  sentCount: number
  /** Recipients whose e-mail the provider refused. */
  failedCount: number
  /** Recipients whose batch has no recorded result yet (0 once complete). */
  pendingCount: number
  batchCount: number
  settledBatchCount: number
  /** When the send queued the delivery (ISO). */
  queuedAt: string
  /** When the last batch was settled, or null before the first. */
  lastBatchAt: string | null
  /** When the delivery completed, or null. */
  completedAt: string | null
}

export interface ProgressSources {
  history: HistoryRepository
  jobs: DeliveryJobStore
}

/** The progress of one notification, or null when no notification has this id. */
export async function readDeliveryProgress(
  notificationId: string,
  { history, jobs }: ProgressSources,
): Promise<DeliveryProgress | null> {
  const record = await history.get({ id: notificationId })
  if (!record) return null
  const deliveryState = record.deliveryState ?? 'complete'
  const base = {
    notificationId,
    deliveryState,
    deliveryMode: record.deliveryMode ?? null,
    recipientCount: record.recipientEmails.length,
    queuedAt: record.timestamp,
    completedAt: record.completedAt ?? null,
  }
  const job = await jobs.getJob(notificationId)
  const batches = job ? await jobs.listBatches(notificationId) : []
  const settled = summarizeBatches(batches)
  const lastBatchAt = settled.lastBatchAt
  const batchCount = job ? Math.ceil(job.recipients.length / BATCH_SIZE) : 0
  if (deliveryState === 'complete' || !job) {
    return {
      ...base,
      sentCount: record.sentCount,
      failedCount: record.failedRecipients.length,
      pendingCount: deliveryState === 'complete' ? 0 : record.recipientEmails.length,
      batchCount,
      settledBatchCount: batches.length,
      lastBatchAt,
    }
  }
  const sentCount = settled.sentCount
  const failedCount = settled.failedRecipients.length
  return {
    ...base,
    recipientCount: job.recipients.length,
    sentCount,
    failedCount,
    pendingCount: Math.max(0, job.recipients.length - sentCount - failedCount),
    batchCount,
    settledBatchCount: batches.length,
    lastBatchAt,
  }
}
