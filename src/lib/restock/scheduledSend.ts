import type { Actor } from '../audit/auditTrail.js'
import { InvalidInputError } from '../errors.js'
import { newScheduledSendId } from '../storage/blobLayout.js'
import type { Repositories } from '../storage/repositories.js'
import type { ScheduledSend } from '../storage/scheduledSends.js'
import { scheduledNotificationId } from './notificationIds.js'
import { sendReadiness, type SendOptions } from './sendPreparation.js'
import type { SendRequest } from './sendRequest.js'

/**
 * A staff member's send for later (`POST /api/admin/notify/send` with `sendAt`; the dashboard's
 * 「8:00 に予約」 at night): stored now, sent by the scheduled sweep once its time has come
 * (restock/dueSends.ts), to whoever is waiting then. Its notice id is known from the start.
 */

/** The furthest ahead a send may be scheduled. */
export const MAX_SCHEDULE_AHEAD_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

export const SEND_AT_PAST = 'sendAt must be in the future'
export const SEND_AT_TOO_FAR = `sendAt must be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead`

/** What scheduling a send uses: a send's options, the scheduled sends and who asks. */
export interface ScheduleOptions extends SendOptions {
  repositories: SendOptions['repositories'] & Pick<Repositories, 'scheduledSends'>
  /** Who scheduled it: the actor of the send when it goes. Default: nobody named. */
  actor?: Actor | null
}

/** What a scheduled send answers (the §4.8 fields and when it goes). */
export interface ScheduledSummary {
  notificationId: string
  sentCount: number
  recipientEmails: string[]
  timestamp: string
  sendAt: string
  scheduledSendId: string
}

/**
 * Stores the send for `sendAt` (ms): after now, at most MAX_SCHEDULE_AHEAD_DAYS ahead
 * (InvalidInputError otherwise). The configuration is checked now (NotConfiguredError, the
 * sender details), so that staff learn of a missing setting when they schedule, not at 8:00.
 */
export async function scheduleRestockSend(
  request: SendRequest,
  sendAt: number,
  options: ScheduleOptions,
): Promise<ScheduledSummary> {
  const now = options.now()
  if (sendAt <= now) throw new InvalidInputError(SEND_AT_PAST)
  if (sendAt > now + MAX_SCHEDULE_AHEAD_DAYS * DAY_MS) throw new InvalidInputError(SEND_AT_TOO_FAR)
  sendReadiness(options)
  const id = newScheduledSendId()
  const record: ScheduledSend = {
    id,
    productSlug: request.productSlug,
    emailTitle: request.emailTitle,
    emailBody: request.emailBody,
    sendAt: new Date(sendAt).toISOString(),
    createdAt: new Date(now).toISOString(),
    scheduledBy: options.actor ?? null,
    state: 'scheduled',
    notificationId: scheduledNotificationId(id),
    doneAt: null,
    error: null,
  }
  await options.repositories.scheduledSends.create({ id }, record)
  await options.audit?.record([
    {
      action: 'schedule',
      record: { type: 'notification', id: record.notificationId, productSlug: record.productSlug },
      from: null,
      to: record.sendAt,
    },
  ])
  options.log.info('restock.send.scheduled', {
    scheduledSendId: id,
    notificationId: record.notificationId,
    productSlug: record.productSlug,
    sendAt: record.sendAt,
  })
  return {
    notificationId: record.notificationId,
    sentCount: 0,
    recipientEmails: [],
    timestamp: record.createdAt,
    sendAt: record.sendAt,
    scheduledSendId: id,
  }
}
