import type { AppConfig } from '../config.js'
import { HttpError } from '../http/errors.js'
import type { Logger } from '../log.js'
import { DeliveryStartError } from './deliveryTrigger.js'
import {
  readDeliveryProgress,
  type DeliveryProgress,
  type ProgressSources,
} from './deliveryProgress.js'

/** The answer of POST /api/admin/notify/resume: the delivery's progress and whether a run was started. */
export interface ResumeAnswer extends DeliveryProgress {
  success: true
  /** True when the background delivery was started by this call (the delivery was not complete). */
  started: boolean
}

export interface ResumeOptions extends ProgressSources {
  config: Pick<AppConfig, 'resendApiKey' | 'resendFromEmail' | 'unsubscribeSecret'>
  log: Logger
  /** Starts the background delivery; rejects with DeliveryStartError when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
}

/** A delivery that a run of the background function can take further. */
export function isResumable(progress: DeliveryProgress): boolean {
  return progress.deliveryState !== 'complete' && progress.deliveryMode !== 'record-only'
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
  const progress = await readDeliveryProgress(notificationId, options)
  if (!progress) throw new HttpError(404, 'Notification not found')
  if (!isResumable(progress)) return { success: true, ...progress, started: false }
  const { config } = options
  if (!config.resendApiKey || !config.resendFromEmail || !config.unsubscribeSecret) {
    throw new HttpError(503, 'Email delivery is not configured')
  }
  try {
    await options.startDelivery(notificationId)
  } catch (error) {
    if (!(error instanceof DeliveryStartError)) throw error
    options.log.error('restock.delivery.resume_failed', error, { notificationId })
    throw new HttpError(503, 'Delivery could not be started; try again')
  }
  options.log.info('restock.delivery.resumed', {
    notificationId,
    by: 'admin',
    deliveryState: progress.deliveryState,
    settledBatches: progress.settledBatchCount,
    batchCount: progress.batchCount,
    pendingCount: progress.pendingCount,
  })
  return { success: true, ...progress, started: true }
}
