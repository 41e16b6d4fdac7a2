import { HttpError } from '../http/errors.js'
import type { ProductRecordRepository } from '../storage/repositories.js'
import type { NotifySubscription, Reservation, ReservationStatus } from '../storage/records.js'
import type { AdminRecord, AdminResource } from './adminResources.js'
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
 * keeps) and sets `respondedAt` the first time the status leaves `pending`, keeping it afterwards.
 */
export function applyReservationStatus(
  record: Reservation,
  update: StatusUpdateRequest,
  now: string,
): Reservation {
  if (!isAllowedReservationTransition(record.status, update.status)) {
    throw new HttpError(409, `Invalid status transition: ${record.status} -> ${update.status}`)
  }
  const respondedAt = record.respondedAt ?? (update.status === 'pending' ? null : now)
  return {
    ...record,
    status: update.status,
    notes: update.notes ?? record.notes ?? '',
    respondedAt,
  }
}

/**
 * §3.1: any status may be set. `notifiedAt` becomes now when the subscription becomes notified
 * (kept when it already was), null when it goes back to pending, and is kept on unsubscribe
 * (it records that a notification was sent).
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
  return { ...record, status, notifiedAt }
}

export interface StatusUpdateOptions {
  /** Clock, for tests. Default: the current time. */
  now?: () => Date
}

/**
 * Loads the record, applies the resource's status rules and saves it under its own key; archived
 * records may be updated and stay archived. `id`, `productSlug` and `createdAt` never change (D4).
 */
export async function updateRecordStatus<T extends AdminRecord>(
  resource: AdminResource<T>,
  repository: ProductRecordRepository<T>,
  update: StatusUpdateRequest,
  options: StatusUpdateOptions = {},
): Promise<T> {
  const ref = { id: update.id, productSlug: update.productSlug }
  const record = await repository.get(ref)
  if (!record) throw new HttpError(404, resource.notFoundMessage)
  const now = (options.now?.() ?? new Date()).toISOString()
  const changed = resource.applyStatus(record, update, now)
  const updated: T = {
    ...changed,
    id: record.id,
    productSlug: record.productSlug,
    createdAt: record.createdAt,
  }
  await repository.save(ref, updated)
  return updated
}
