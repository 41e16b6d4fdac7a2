import {
  NO_PROGRESS,
  type DeliveryJobStore,
  type DeliveryProgressRecord,
} from '../storage/deliveryJobStore.js'
import type { DeliveryMode, DeliveryState, NotificationHistory } from '../storage/records.js'
import { BATCH_SIZE } from './deliveryRun.js'
import { answerFieldsOf, isRunning, noticeStateOf, type NoticeState } from './noticeState.js'

/**
 * Where one restock delivery stands: the one progress model behind the history list (and the
 * dashboard, which shows that list), the resume answer and the scheduled resume. Read from the
 * history record and, while the delivery runs, its progress record (one blob whatever the
 * delivery's size, kept by the worker: storage/deliveryJobStore.ts). Nothing is written here.
 */
export interface DeliveryProgress {
  notificationId: string
  state: NoticeState
  /** The answers' `deliveryState` (§2.3 fields mapped from `state`). */
  deliveryState: DeliveryState
  /** `email` (Resend) or `record-only` (no provider configured); null on old records. */
  deliveryMode: DeliveryMode | null
  /** §2.3 status: `failed` only when complete and nobody was reached. */
  status: 'sent' | 'failed'
  /** Recipients snapshotted at send time. */
  recipientCount: number
  /**
   * Recipients whose e-mail the provider accepted (record-only: every recipient recorded, and
   * the LINE recipients whose push LINE accepted).
   */
  sentCount: number
  /** Recipients whose e-mail the provider refused. */
  failedCount: number
  /**
   * Who of them, with why: all once complete; while running, the first PROGRESS_FAILURE_SAMPLE
   * (storage/deliveryJobStore.ts).
   */
  failedRecipients: { email: string; error: string }[]
  /** Recipients whose batch is not counted yet (0 once complete). */
  pendingCount: number
  /** When the send queued the delivery (ISO). */
  queuedAt: string
  /** When the delivery completed, or null. */
  completedAt: string | null
}

/** The batch view of a delivery, for the resume answer and the scheduled resume. */
export interface BatchProgress extends DeliveryProgress {
  batchCount: number
  settledBatchCount: number
  /** When the last batch counted was settled, or null before the first. */
  lastBatchAt: string | null
}

type ProgressSource = Pick<DeliveryJobStore, 'getProgress'>

/** The progress of `record`: a running delivery reads its progress record (one blob), a complete one nothing. */
export async function progressOf(
  record: NotificationHistory,
  jobs: ProgressSource,
): Promise<DeliveryProgress> {
  const state = noticeStateOf(record)
  const counted = isRunning(state) ? await countedOf(record.id, jobs) : null
  return progressFrom(record, state, counted, null)
}

/**
 * The progress of a notification with its batches, or null when no notification has this id:
 * three blob requests (history, job metadata, progress record) whatever the delivery's size.
 */
export async function readBatchProgress(
  notificationId: string,
  sources: {
    history: { get(ref: { id: string }): Promise<NotificationHistory | null> }
    jobs: Pick<DeliveryJobStore, 'jobSize' | 'getProgress'>
  },
): Promise<BatchProgress | null> {
  const record = await sources.history.get({ id: notificationId })
  if (!record) return null
  const state = noticeStateOf(record)
  const [job, counted] = await Promise.all([
    sources.jobs.jobSize(notificationId),
    countedOf(notificationId, sources.jobs),
  ])
  const running = isRunning(state) && job !== null
  const progress = progressFrom(
    record,
    state,
    running ? counted : null,
    running ? job.recipientCount : null,
  )
  // why: the recipients only recorded are in no batch
  const batched = progress.recipientCount - (record.recordedCount ?? 0)
  return {
    ...progress,
    batchCount: job ? Math.ceil(Math.max(0, batched) / BATCH_SIZE) : 0,
    settledBatchCount: counted.foldedBatches,
    lastBatchAt: counted.lastBatchAt,
  }
}

async function countedOf(
  notificationId: string,
  jobs: ProgressSource,
): Promise<Readonly<DeliveryProgressRecord>> {
  return (await jobs.getProgress(notificationId)) ?? NO_PROGRESS
}

function progressFrom(
  record: NotificationHistory,
  state: NoticeState,
  counted: Readonly<DeliveryProgressRecord> | null,
  jobRecipients: number | null,
): DeliveryProgress {
  // why: a notice without an e-mail provider pushes its LINE recipients alone (the job's); the
  // others were only recorded, settled from the start, as its history counts them once complete
  const recorded = record.recordedCount ?? 0
  const snapshotted =
    jobRecipients === null
      ? (record.recipientEmails?.length ?? record.sentCount)
      : jobRecipients + recorded
  const running = isRunning(state)
  // why: while running, the history still says "queued" counts; the progress record says what happened
  const sentCount = counted ? recorded + counted.sentCount : record.sentCount
  const failedRecipients = counted ? counted.failed : (record.failedRecipients ?? [])
  const failedCount = counted ? counted.failedCount : failedRecipients.length
  // why: an erase drops an address from the history's list; never answer more settled than recipients
  const recipientCount = counted ? Math.max(snapshotted, sentCount + failedCount) : snapshotted
  return {
    notificationId: record.id,
    state,
    ...answerFieldsOf(record),
    recipientCount,
    sentCount,
    failedCount,
    failedRecipients,
    pendingCount: !running
      ? 0
      : counted
        ? Math.max(0, recipientCount - sentCount - failedCount)
        : recipientCount,
    queuedAt: record.timestamp,
    completedAt: record.completedAt ?? null,
  }
}
