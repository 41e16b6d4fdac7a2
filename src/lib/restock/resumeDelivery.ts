import { EMAIL_NOT_CONFIGURED, type AppConfig } from '../config.js'
import { NotConfiguredError, NotFoundError, TryAgainLaterError } from '../errors.js'
import type { Logger } from '../log.js'
import type { Repositories } from '../storage/repositories.js'
import { readBatchProgress, type BatchProgress } from './deliveryProgress.js'
import { DeliveryStartError } from './deliveryStarter.js'
import { isRunning } from './noticeState.js'

/** The fields of the answer of POST /api/admin/notify/resume: the delivery's progress and whether a run was started. */
export interface ResumeAnswer {
  notificationId: string
  deliveryState: BatchProgress['deliveryState']
  deliveryMode: BatchProgress['deliveryMode']
  recipientCount: number
  sentCount: number
  failedCount: number
  pendingCount: number
  batchCount: number
  settledBatchCount: number
  queuedAt: string
  lastBatchAt: string | null
  completedAt: string | null
  /** True when the background delivery was started by this call (the delivery was not complete). */
  started: boolean
}

export interface ResumeOptions {
  repositories: Pick<Repositories, 'history' | 'deliveries'>
  config: Pick<AppConfig, 'emailDelivery' | 'line' | 'unsubscribeSecret'>
  log: Logger
  /** Starts the background delivery; rejects with DeliveryStartError when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
}

/**
 * Whether a run could deliver: e-mail delivery is configured, or the notice's e-mail recipients
 * were only recorded and LINE is (its job pushes LINE recipients only).
 */
function canDeliver(config: ResumeOptions['config'], mode: BatchProgress['deliveryMode']): boolean {
  if (config.emailDelivery.ready) return true
  return mode === 'record-only' && config.line !== null && config.unsubscribeSecret !== null
}

/** A delivery that a run of the background function can take further. */
export function isResumable(progress: BatchProgress): boolean {
  return isRunning(progress.state)
}

/** The resume answer's fields of a progress, in the documented order. */
function answerOf(progress: BatchProgress, started: boolean): ResumeAnswer {
  return {
    notificationId: progress.notificationId,
    deliveryState: progress.deliveryState,
    deliveryMode: progress.deliveryMode,
    recipientCount: progress.recipientCount,
    sentCount: progress.sentCount,
    failedCount: progress.failedCount,
    pendingCount: progress.pendingCount,
    batchCount: progress.batchCount,
    settledBatchCount: progress.settledBatchCount,
    queuedAt: progress.queuedAt,
    lastBatchAt: progress.lastBatchAt,
    completedAt: progress.completedAt,
    started,
  }
}

/**
 * Reports where a delivery stands and, unless it is complete, starts the background delivery
 * again. Always safe: a run skips settled batches and resends an unsettled one with its own
 * idempotency key; a run that finds the delivery complete does nothing.
 */
export async function resumeDelivery(
  notificationId: string,
  options: ResumeOptions,
): Promise<ResumeAnswer> {
  const { history, deliveries } = options.repositories
  const progress = await readBatchProgress(notificationId, { history, jobs: deliveries })
  if (!progress) throw new NotFoundError('Notification not found')
  if (!isResumable(progress)) return answerOf(progress, false)
  // why: the answer names no variable (§4.8 resume); the log of the run that fails names it
  if (!canDeliver(options.config, progress.deliveryMode)) {
    throw new NotConfiguredError(EMAIL_NOT_CONFIGURED)
  }
  try {
    await options.startDelivery(notificationId)
  } catch (error) {
    if (!(error instanceof DeliveryStartError)) throw error
    options.log.error('restock.delivery.resume_failed', error, { notificationId })
    throw new TryAgainLaterError('Delivery could not be started; try again')
  }
  options.log.info('restock.delivery.resumed', {
    notificationId,
    by: 'admin',
    deliveryState: progress.deliveryState,
    settledBatches: progress.settledBatchCount,
    batchCount: progress.batchCount,
    pendingCount: progress.pendingCount,
  })
  return answerOf(progress, true)
}
