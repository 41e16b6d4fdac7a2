import { AlreadyInProgressError, InvalidInputError, TryAgainLaterError } from '../errors.js'
import type { NotificationHistory } from '../storage/records.js'
import { DeliveryStartError } from './deliveryStarter.js'
import { notificationIdFor } from './notificationIds.js'
import { isEmailed, isRunning, noticeStateOf, storedState } from './noticeState.js'
import { scheduleRestockSend, type ScheduleOptions } from './scheduledSend.js'
import {
  prepareNotice,
  sendReadiness,
  type SendOptions,
  type SendReadiness,
} from './sendPreparation.js'
import type { SendRequest } from './sendRequest.js'

/**
 * The §4.8 answer's fields. With e-mail delivery, `sentCount` is the number of recipients queued.
 * A scheduled send (`sendAt`) answers the notice id it will have, nobody yet, and `sendAt` and
 * `scheduledSendId`.
 */
export interface SendSummary {
  notificationId: string
  sentCount: number
  recipientEmails: string[]
  timestamp: string
  /** When a scheduled send goes (ISO); absent on a send made now. */
  sendAt?: string
  /** The scheduled send's id (`sch_…`); absent on a send made now. */
  scheduledSendId?: string
}

/** 400 for a send with `holdHours` when no unit in stock is free to hold. */
export const NO_UNIT_TO_HOLD =
  'No unit in stock is free to hold: every unit is held or none is in stock'

/** 503 when the background delivery of an e-mailed notice cannot be started. */
export const EMAIL_NOT_STARTED = 'Email delivery could not be started; no e-mail was sent'

/**
 * 503 when the delivery of a notice sent without an e-mail provider, whose LINE recipients it
 * pushes, cannot be started: nobody was pushed, nobody marked notified.
 */
export const LINE_NOT_STARTED = 'LINE delivery could not be started; no LINE message was sent'

/** 409 while another send chooses the same product's recipients. */
export const SEND_IN_PROGRESS = 'A send for this product is already in progress'

/**
 * POST /api/admin/notify/send (§4.8, D9). Without an e-mail provider: records the history and
 * marks every waiting e-mail subscriber `notified`; with LINE configured its LINE recipients are
 * pushed by the background delivery all the same. With Resend: snapshots the recipients, records the
 * history as `queued` and starts the background delivery, which sets each recipient `notified`
 * once the provider accepted their e-mail and writes the final history. Recipients are chosen
 * under the product's send lock: a different send meanwhile is refused (SEND_IN_PROGRESS), and a
 * subscriber an open notice (a wave still delivering) holds is left out.
 */
export async function sendRestockNotification(
  request: SendRequest,
  options: ScheduleOptions,
): Promise<SendSummary> {
  if (request.sendAt !== undefined) return scheduleRestockSend(request, request.sendAt, options)
  const readiness = sendReadiness(options)
  const { id, open } = await notificationIdFor(request, options.repositories.history)
  return sendNotice(request, { id, open }, readiness, options)
}

/**
 * Sends `request` now as the notice `notice.id`: `open` is the history stored under that id
 * before, if any (a notice still delivering is the same send repeated; one whose delivery never
 * started is sent again). The one path of a staff member's send, made now or when its scheduled
 * time has come (restock/dueSends.ts).
 */
export async function sendNotice(
  request: SendRequest,
  notice: { id: string; open: NotificationHistory | null },
  readiness: SendReadiness,
  options: SendOptions,
): Promise<SendSummary> {
  const { repositories, log } = options
  const { id: notificationId, open } = notice
  if (open && isRunning(noticeStateOf(open))) return repeated(open, options)

  const prepared = await prepareNotice(
    { ...request, notificationId, retried: open },
    readiness,
    options,
  )
  if (prepared.state === 'busy') throw new AlreadyInProgressError(SEND_IN_PROGRESS)
  if (prepared.state === 'nobody-waiting') {
    throw new InvalidInputError('No pending subscribers found for this product')
  }
  if (prepared.state === 'all-held') throw new InvalidInputError(NO_UNIT_TO_HOLD)
  if (!prepared.isNew) return repeated(prepared.history, options)
  const summary = summaryOf(prepared.history)
  // why: a notice without a delivery (no provider, no LINE recipient pushed) is complete now
  if (noticeStateOf(prepared.history) !== 'queued') return summary

  try {
    await options.startDelivery(notificationId)
  } catch (error) {
    if (!(error instanceof DeliveryStartError)) throw error
    log.error('restock.send.start_failed', error, { notificationId })
    const reason = 'Delivery could not be started'
    const emailed = isEmailed(prepared.history)
    // why: like an e-mail send that cannot start, it reached nobody (a LINE one marked nobody
    // notified yet): every recipient is failed, and sending again chooses them all again
    await repositories.history.update({ id: notificationId }, (current) =>
      noticeStateOf(current) === 'queued'
        ? {
            ...current,
            ...storedState(emailed ? 'failed' : 'recorded'),
            sentCount: 0,
            failedRecipients: current.recipientEmails.map((email) => ({ email, error: reason })),
            completedAt: new Date(options.now()).toISOString(),
          }
        : current,
    )
    throw new TryAgainLaterError(emailed ? EMAIL_NOT_STARTED : LINE_NOT_STARTED)
  }
  await prepared.markRecorded()
  log.info('restock.send.queued', { notificationId, recipients: summary.sentCount })
  return summary
}

/** The §4.8 answer of a stored notice. */
export function summaryOf(history: NotificationHistory): SendSummary {
  return {
    notificationId: history.id,
    sentCount: history.sentCount,
    recipientEmails: history.recipientEmails,
    timestamp: history.timestamp,
  }
}

function repeated(existing: NotificationHistory, options: SendOptions): SendSummary {
  options.log.info('restock.send.repeated', {
    notificationId: existing.id,
    productSlug: existing.productSlug,
  })
  return summaryOf(existing)
}
