import type { AdminResource } from '../admin/adminResources.js'
import { applyReservationStatus } from '../admin/statusRules.js'
import { RESERVATION_STATUSES, type Reservation } from '../storage/records.js'
import { freeUnitsOfRemoved } from './productUnits.js'

/** Reservations as the admin record endpoints manage them (§4.1, §4.3–§4.7). */
export const reservationResource: AdminResource<Reservation> = {
  noun: 'reservation',
  listField: 'reservations',
  recordField: 'reservation',
  statuses: RESERVATION_STATUSES,
  notFoundMessage: 'Reservation not found',
  hasNotes: true,
  repository: (repositories) => repositories.reservations,
  applyStatus: applyReservationStatus,
  removed: freeUnitsOfRemoved,
}
