import type { DeliveryJobStore } from '../storage/deliveryJobStore.js'
import { summarizeBatches } from '../storage/deliveryJobStore.js'
import type { DeliveryMode, DeliveryState, NotificationHistory } from '../storage/records.js'
import { BATCH_SIZE } from './deliveryRun.js'
import { answerFieldsOf, isRunning, noticeStateOf, type NoticeState } from './noticeState.js'

/**
 * Where one restock delivery stands: the one progress model behind the history list (and the
 * dashboard, which shows that list), the resume answer and the scheduled resume. Read from the
 * history record and, while the delivery runs, its settled batches (nothing is written here).
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
  /** Recipients whose e-mail the provider accepted (record-only: every recipient). */
  sentCount: number
  /** Recipients whose e-mail the provider refused, with why. */
  failedRecipients: { email: string; error: string }[]
  /** Recipients whose batch has no recorded result yet (0 once complete). */
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
  /** When the last batch was settled, or null before the first. */
  lastBatchAt: string | null
}

/**
 * The progress of `record`. Only a running delivery reads its settled batches; a complete one is
 * what its record says.
 */
export async function progressOf(
  record: NotificationHistory,
  jobs: Pick<DeliveryJobStore, 'listBatches'>,
): Promise<DeliveryProgress> {
  const state = noticeStateOf(record)
  const batches = isRunning(state) ? await jobs.listBatches(record.id) : null
  return progressFrom(record, state, batches ? summarizeBatches(batches) : null, null)
}

/** The progress of a notification with its batches, or null when no notification has this id. */
export async function readBatchProgress(
  notificationId: string,
  sources: {
    history: { get(ref: { id: string }): Promise<NotificationHistory | null> }
    jobs: Pick<DeliveryJobStore, 'getJob' | 'listBatches'>
  },
): Promise<BatchProgress | null> {
  const record = await sources.history.get({ id: notificationId })
  if (!record) return null
  const state = noticeStateOf(record)
  const job = await sources.jobs.getJob(notificationId)
  const batches = job ? await sources.jobs.listBatches(notificationId) : []
  const settled = summarizeBatches(batches)
  const running = isRunning(state) && job !== null
  return {
    ...progressFrom(
      record,
      state,
      running ? settled : null,
      running ? job.recipients.length : null,
    ),
    batchCount: job ? Math.ceil(job.recipients.length / BATCH_SIZE) : 0,
    settledBatchCount: batches.length,
    lastBatchAt: settled.lastBatchAt,
  }
}

function progressFrom(
  record: NotificationHistory,
  state: NoticeState,
  settled: ReturnType<typeof summarizeBatches> | null,
  jobRecipients: number | null,
): DeliveryProgress {
  const recipientCount = jobRecipients ?? record.recipientEmails?.length ?? record.sentCount
  const running = isRunning(state)
  // why: while running, the history still says "queued" counts; the settled batches say what happened
  const sentCount = settled ? settled.sentCount : record.sentCount
  const failedRecipients = settled ? settled.failedRecipients : (record.failedRecipients ?? [])
  return {
    notificationId: record.id,
    state,
    ...answerFieldsOf(state),
    recipientCount,
    sentCount,
    failedRecipients,
    pendingCount: !running
      ? 0
      : settled
        ? Math.max(0, recipientCount - sentCount - failedRecipients.length)
        : recipientCount,
    queuedAt: record.timestamp,
    completedAt: record.completedAt ?? null,
  }
}
