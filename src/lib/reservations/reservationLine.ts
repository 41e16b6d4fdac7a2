import type { Logger } from '../log.js'
import { lineReservationMessage } from '../messages/lineReservationMessage.js'
import type { DeliveryResult } from '../notifiers/delivery.js'
import { retryKeyOf, type LinePusher } from '../notifiers/linePusher.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { lineUserHash } from '../storage/lineContacts.js'
import type { LineDeliveryNote, Reservation } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'

/**
 * The messages of a reservation made from a LINE sign-up's hold (`channel: 'line'`): pushed in
 * LINE, never e-mailed (it has no address). Each push carries an `X-Line-Retry-Key` derived from
 * `event` (the same name the e-mail's idempotency key has: reservation id, event, and for a
 * status change the status and its time), so a repeated call never sends it twice. A user known
 * not to have the official account as a friend is not pushed (as a restock push is not). A
 * message that did not reach the shopper — not a friend, a failed push, LINE not configured — is
 * noted on the reservation (`lineDelivery`), which staff see; the next message pushed clears it.
 * The LINE user id is never logged.
 */

/** Whether the reservation's messages go to LINE instead of e-mail. */
export function isLineReservation(reservation: Reservation): boolean {
  return reservation.channel === 'line'
}

/** What pushing a reservation's message uses (the request's services have it all). */
export interface ReservationLineDeps {
  /** Null while LINE is not configured. */
  pusher: Pick<LinePusher, 'push'> | null
  repositories: Pick<Repositories, 'reservations' | 'lineContacts'>
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
}

/** The deps of a request's services. */
export function lineDepsOf(services: {
  notifiers: { line: ReservationLineDeps['pusher'] }
  repositories: ReservationLineDeps['repositories']
  log: Logger
  now: () => number
}): ReservationLineDeps {
  const { notifiers, repositories, log, now } = services
  return { pusher: notifiers.line, repositories, log, now }
}

export async function pushReservationMessage(
  reservation: Reservation,
  email: Pick<EmailContent, 'subject' | 'text'>,
  event: string,
  deps: ReservationLineDeps,
): Promise<DeliveryResult> {
  const { pusher, log } = deps
  const lineUserId = reservation.lineUserId
  // why: an erased reservation has nobody left to tell, and nothing to note
  if (!lineUserId) {
    log.info('reservation.line_skipped', {
      reservationId: reservation.id,
      reason: 'no LINE user id (erased)',
    })
    return { destination: 'line', outcome: 'skipped', error: 'erased' }
  }
  if (!pusher) {
    log.info('reservation.line_skipped', {
      reservationId: reservation.id,
      reason: 'LINE is not configured',
    })
    await note(reservation, { status: 'not-configured', reason: 'LINE is not configured' }, deps)
    return { destination: 'line', outcome: 'skipped', error: 'not configured' }
  }
  const contact = await deps.repositories.lineContacts.get(lineUserHash(lineUserId))
  if (contact?.friend === false) {
    log.info('reservation.line_skipped', { reservationId: reservation.id, reason: 'not a friend' })
    await note(reservation, { status: 'not-friend', reason: 'not a friend' }, deps)
    return { destination: 'line', outcome: 'skipped', error: 'not a friend' }
  }
  const message = lineReservationMessage(email)
  const key = retryKeyOf(`line/${event}`)
  let result = await pusher.push(lineUserId, [message], key)
  if (result.outcome === 'failed' && result.retryable) {
    result = await pusher.push(lineUserId, [message], key)
  }
  if (result.outcome === 'failed') {
    log.warn('reservation.line_failed', { reservationId: reservation.id, error: result.error })
    await note(reservation, { status: 'failed', reason: result.error }, deps)
    return { destination: 'line', outcome: 'failed', error: result.error }
  }
  log.info('reservation.line_pushed', { reservationId: reservation.id, event: event.split('/')[0] })
  await note(reservation, null, deps)
  return { destination: 'line', outcome: 'sent' }
}

/**
 * Notes on the reservation (compare-and-swap) that its message did not reach the shopper, or,
 * with null, clears an earlier note once a message did. A reservation deleted meanwhile stays
 * deleted; nothing is written when nothing changes.
 */
async function note(
  reservation: Reservation,
  outcome: Omit<LineDeliveryNote, 'at'> | null,
  deps: ReservationLineDeps,
): Promise<void> {
  const at = new Date(deps.now()).toISOString()
  await deps.repositories.reservations.update(reservation, (current) => {
    if (outcome === null) {
      if (current.lineDelivery === undefined) return current
      const cleared = { ...current }
      delete cleared.lineDelivery
      return cleared
    }
    return { ...current, lineDelivery: { ...outcome, at } }
  })
}
