import type { Logger } from '../log.js'
import type { Repositories } from '../storage/repositories.js'
import { readBatchProgress } from './deliveryProgress.js'
import { DELIVERY_FUNCTION_PATH } from './deliveryStarter.js'
import { isRunning, noticeStateOf } from './noticeState.js'
import { isResumable } from './resumeDelivery.js'

/**
 * A delivery with no settled batch for this long has no run working on it: a background
 * function is stopped after 15 minutes, and a live run settles a batch at least every
 * ~22 s (one batch's allowance at the default timeout, docs/decisions-local.md).
 */
const STALL_AFTER_MS = 20 * 60 * 1000

/**
 * Resend keeps an idempotency key 24 hours. A delivery idle longer than this is not resumed by
 * itself: a batch cut short before then could be e-mailed twice. A person resumes it by hand.
 */
const AUTO_RESUME_LIMIT_MS = 23 * 60 * 60 * 1000

export interface StalledDeliveryOptions {
  repositories: Pick<Repositories, 'history' | 'deliveries'>
  log: Logger
  /** Starts the background delivery; rejects when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
  /** The request's clock, ms since the epoch. */
  now: () => number
}

/** What one sweep did, by notification id. */
export interface StalledSweep {
  resumed: string[]
  /** Idle longer than AUTO_RESUME_LIMIT_MS: left for a person (logged). */
  leftForHand: string[]
  /** Could not be started (logged); the next sweep tries again. */
  failed: string[]
}

/**
 * Finds deliveries still `queued` or `delivering` with no settled batch for STALL_AFTER_MS (or,
 * before the first batch, since they were queued) and starts the background delivery for each,
 * with one log line per delivery. Safe to run at any time, also twice at once: settled batches
 * are never sent again, an unsettled one is resent with its own idempotency key.
 */
export async function resumeStalledDeliveries(
  options: StalledDeliveryOptions,
): Promise<StalledSweep> {
  const { now } = options
  const { log } = options
  const sweep: StalledSweep = { resumed: [], leftForHand: [], failed: [] }
  const { history, deliveries } = options.repositories
  const open = (await history.list()).records.filter((record) => isRunning(noticeStateOf(record)))
  for (const record of open) {
    const progress = await readBatchProgress(record.id, { history, jobs: deliveries })
    if (!progress || !isResumable(progress)) continue
    const lastActivity = progress.lastBatchAt ?? progress.queuedAt
    const idleMs = now() - Date.parse(lastActivity)
    if (!(idleMs >= STALL_AFTER_MS)) continue
    const fields = {
      notificationId: record.id,
      deliveryState: progress.deliveryState,
      idleMinutes: Math.floor(idleMs / 60_000),
      settledBatches: progress.settledBatchCount,
      batchCount: progress.batchCount,
      pendingCount: progress.pendingCount,
    }
    if (idleMs > AUTO_RESUME_LIMIT_MS) {
      log.warn('restock.delivery.stalled_too_long', {
        ...fields,
        howToResume: `POST /api/admin/notify/resume {"notificationId": "${record.id}"} with the admin token`,
      })
      sweep.leftForHand.push(record.id)
      continue
    }
    try {
      await options.startDelivery(record.id)
      log.info('restock.delivery.resumed', { ...fields, by: 'schedule' })
      sweep.resumed.push(record.id)
    } catch (error) {
      log.error('restock.delivery.resume_failed', error, {
        ...fields,
        functionPath: DELIVERY_FUNCTION_PATH,
      })
      sweep.failed.push(record.id)
    }
  }
  return sweep
}
