import type { Logger } from '../log.js'
import { lineReservationMessage } from '../messages/lineReservationMessage.js'
import type { DeliveryResult } from '../notifiers/delivery.js'
import { retryKeyOf, type LinePusher } from '../notifiers/linePusher.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import type { Reservation } from '../storage/records.js'

/**
 * The messages of a reservation made from a LINE sign-up's hold (`channel: 'line'`): pushed in
 * LINE, never e-mailed (it has no address). Each push carries an `X-Line-Retry-Key` derived from
 * `event` (the same name the e-mail's idempotency key has: reservation id, event, and for a
 * status change the status and its time), so a repeated call never sends it twice. Without LINE
 * configured the message is skipped with a log line. The LINE user id is never logged.
 */

/** Whether the reservation's messages go to LINE instead of e-mail. */
export function isLineReservation(reservation: Reservation): boolean {
  return reservation.channel === 'line'
}

export async function pushReservationMessage(
  reservation: Reservation,
  email: Pick<EmailContent, 'subject' | 'text'>,
  event: string,
  pusher: Pick<LinePusher, 'push'> | null,
  log: Logger,
): Promise<DeliveryResult> {
  const lineUserId = reservation.lineUserId
  if (!pusher || !lineUserId) {
    log.info('reservation.line_skipped', {
      reservationId: reservation.id,
      reason: pusher ? 'no LINE user id (erased)' : 'LINE is not configured',
    })
    return { destination: 'line', outcome: 'skipped', error: pusher ? 'erased' : 'not configured' }
  }
  const message = lineReservationMessage(email)
  const key = retryKeyOf(`line/${event}`)
  let result = await pusher.push(lineUserId, [message], key)
  if (result.outcome === 'failed' && result.retryable) {
    result = await pusher.push(lineUserId, [message], key)
  }
  if (result.outcome === 'failed') {
    log.warn('reservation.line_failed', { reservationId: reservation.id, error: result.error })
    return { destination: 'line', outcome: 'failed', error: result.error }
  }
  log.info('reservation.line_pushed', { reservationId: reservation.id, event: event.split('/')[0] })
  return { destination: 'line', outcome: 'sent' }
}
