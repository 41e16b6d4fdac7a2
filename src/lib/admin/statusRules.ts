import { TransitionNotAllowedError } from '../errors.js'
import type { NotifySubscription, Reservation, ReservationStatus } from '../storage/records.js'
import type { StatusUpdateRequest } from './adminSchemas.js'

/** §3.2: the reservation transitions an admin may make. Setting the current status again is always allowed (D4). */
export const RESERVATION_TRANSITIONS: Readonly<Record<ReservationStatus, readonly string[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['fulfilled', 'cancelled', 'pending'],
  fulfilled: ['confirmed'],
  cancelled: ['pending'],
}

/**
 * Whether a reservation may go from `from` to `to`. A legacy status outside the four (D3:
 * `responded`, `reserved` on imported archives) has no row in §3.2; it may be replaced by any of
 * the four so that an imported record is never stuck.
 */
export function isAllowedReservationTransition(from: string, to: string): boolean {
  if (from === to) return true
  const allowed = RESERVATION_TRANSITIONS[from as ReservationStatus]
  return allowed ? allowed.includes(to) : true
}

/**
 * §3.2, §4.5, D4: checks the transition, applies notes (given replaces, '' clears, omitted
 * keeps) and the choice to share them (`shareNote`: given replaces, omitted keeps) and sets
 * `respondedAt` the first time the status leaves `pending`, keeping it afterwards.
 */
export function applyReservationStatus(
  record: Reservation,
  update: StatusUpdateRequest,
  now: string,
): Reservation {
  if (!isAllowedReservationTransition(record.status, update.status)) {
    throw new TransitionNotAllowedError(
      `Invalid status transition: ${record.status} -> ${update.status}`,
    )
  }
  const respondedAt = record.respondedAt ?? (update.status === 'pending' ? null : now)
  return {
    ...record,
    status: update.status,
    notes: update.notes ?? record.notes ?? '',
    respondedAt,
    ...(update.shareNote === undefined ? {} : { shareNote: update.shareNote }),
  }
}

/**
 * §3.1: any status may be set. `notifiedAt` becomes now when the subscription becomes notified
 * (kept when it already was), null when it goes back to pending, and is kept on unsubscribe
 * (it records that a notification was sent). `unsubscribedAt` becomes now when it becomes
 * unsubscribed and is kept afterwards, also when it is set back to pending: a send still skips
 * it (docs/compliance.md, "Opt-out"). A change of status drops `unsubscribeReason` (the reason an
 * automatic source ended it no longer holds once staff decide) and `keepAskedAt` (the question
 * of a long-waiting sign-up is about the wait staff just ended or started again).
 */
export function applySubscriptionStatus(
  record: NotifySubscription,
  update: StatusUpdateRequest,
  now: string,
): NotifySubscription {
  const status = update.status as NotifySubscription['status']
  let notifiedAt = record.notifiedAt ?? null
  if (status === 'notified') notifiedAt = record.status === 'notified' ? (notifiedAt ?? now) : now
  if (status === 'pending') notifiedAt = null
  const optedOut =
    status === 'unsubscribed' && record.status !== 'unsubscribed' ? { unsubscribedAt: now } : {}
  const next: NotifySubscription = { ...record, status, notifiedAt, ...optedOut }
  if (status !== record.status) {
    delete next.unsubscribeReason
    delete next.keepAskedAt
  }
  return next
}
