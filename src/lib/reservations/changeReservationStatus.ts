import { reservationResource } from '../admin/adminResources.js'
import type { StatusUpdateRequest } from '../admin/adminSchemas.js'
import { isAllowedReservationTransition } from '../admin/statusRules.js'
import { updateRecordStatus } from '../admin/statusUpdates.js'
import { NotFoundError } from '../errors.js'
import { isMailedStatus, reservationStatusEmail } from '../messages/reservationStatusMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { findProduct, productUrl } from '../productCatalogue.js'
import type { Services } from '../services.js'
import type { Reservation } from '../storage/records.js'
import { manageLinkFor } from './manageLink.js'
import { holdsUnits, productUnits, unitsOf } from './productUnits.js'

/** A staff status change: §4.5 plus `shareNote` (put the notes into the customer's e-mails). */
export type ReservationStatusChange = StatusUpdateRequest

export interface ChangeReservationStatusOptions {
  /** Clock, for tests. Default: `() => new Date()`. */
  now?: () => Date
}

/**
 * POST /api/admin-reservations-status (§3.2, §4.5, D4) for a pre-order: the transition is applied
 * with compare-and-swap as for every record; a capped product's units follow the status
 * (`cancelled` frees them; leaving `cancelled` takes them again, or answers 409 with `remaining`
 * when none are left); and the customer gets one e-mail per applied transition into
 * `confirmed`, `fulfilled` or `cancelled` (never for a refused or repeated change).
 */
export async function changeReservationStatus(
  change: ReservationStatusChange,
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'audit'>,
  { now = () => new Date() }: ChangeReservationStatusOptions = {},
): Promise<Reservation> {
  const { config, log, context } = services
  const { reservations } = services.repositories
  const ref = { id: change.id, productSlug: change.productSlug }
  const current = await reservations.get(ref)
  if (!current) throw new NotFoundError(reservationResource.notFoundMessage)
  const product = findProduct(change.productSlug)
  const units = product && productUnits(product, { repositories: services.repositories, now })
  if (
    units &&
    !holdsUnits(current.status) &&
    holdsUnits(change.status) &&
    isAllowedReservationTransition(current.status, change.status)
  ) {
    await units.take(current.id, unitsOf(current))
  }

  let from = null as string | null
  const tracked = {
    ...reservationResource,
    applyStatus: (record: Reservation, update: StatusUpdateRequest, stamp: string) => {
      from = record.status
      const next = reservationResource.applyStatus(record, update, stamp)
      if (record.status === update.status) return next
      return {
        ...next,
        statusChangedAt: stamp,
        ...(update.status === 'cancelled' ? { cancelledBy: 'staff' as const } : {}),
      }
    },
  }
  let updated: Reservation | null = null
  try {
    updated = await updateRecordStatus(tracked, reservations, change, {
      now,
      audit: services.audit,
    })
  } finally {
    // why: also after a refusal, so units taken for a change that did not land are given back
    await units?.follow(updated ?? (await reservations.get(ref)), ref.id)
  }

  if (from !== null && from !== updated.status && isMailedStatus(updated.status)) {
    log.info('reservation.status_changed', {
      reservationId: updated.id,
      productSlug: updated.productSlug,
      from,
      to: updated.status,
    })
    if (!config.reservationStatusEmails) {
      log.info('reservation.status_email_off', { reservationId: updated.id })
    } else if (product) {
      const status = updated.status
      const email = reservationStatusEmail({
        reservation: updated,
        product,
        productUrl: productUrl(product.slug, config.siteUrl),
        status,
        // why: what staff chose is what is sent: the choice stored with the notes, not only the
        // one sent with this change
        sharedNote: updated.shareNote && updated.notes ? updated.notes : null,
        manageUrl: status === 'confirmed' ? manageLinkFor(updated, config, log, now) : null,
      })
      const mailer = services.notifiers.mailer
      const record = updated
      dispatchNotifications(context, log, [
        () =>
          mailer.send(
            { to: record.email, ...email },
            // why: one e-mail per applied transition, even when the platform repeats the call
            {
              idempotencyKey: `reservation-status/${record.id}/${status}/${record.statusChangedAt}`,
            },
          ),
      ])
    }
  }
  return updated
}
