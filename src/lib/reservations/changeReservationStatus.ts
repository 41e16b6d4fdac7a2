import { reservationResource } from './reservationResource.js'
import type { StatusUpdateRequest } from '../admin/adminSchemas.js'
import { isAllowedReservationTransition } from '../admin/statusRules.js'
import { updateRecordStatus } from '../admin/statusUpdates.js'
import { NotFoundError } from '../errors.js'
import { isMailedStatus, reservationStatusEmail } from '../messages/reservationStatusMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { asShown, productUrl, targetOfRecord } from '../productCatalogue.js'
import type { Services } from '../services.js'
import type { Reservation } from '../storage/records.js'
import { manageLinkFor } from './manageLink.js'
import { isLineReservation, lineDepsOf, pushReservationMessage } from './reservationLine.js'
import { holdsUnits, productUnits, unitsOf } from './productUnits.js'

/** A staff status change: §4.5 plus `shareNote` (put the notes into the customer's e-mails). */
export type ReservationStatusChange = StatusUpdateRequest

/**
 * POST /api/admin-reservations-status (§3.2, §4.5, D4) for a pre-order: the transition is applied
 * with compare-and-swap as for every record; a capped product's units follow the status
 * (`cancelled` frees them; leaving `cancelled` takes them again, or answers 409 with `remaining`
 * when none are left); and the customer gets one e-mail per applied transition into
 * `confirmed`, `fulfilled` or `cancelled` (never for a refused or repeated change), sent after
 * `reservationStatusEmailDelayMs` and only when the change is still the reservation's state.
 */
export async function changeReservationStatus(
  change: ReservationStatusChange,
  services: Pick<
    Services,
    'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'audit' | 'now'
  >,
): Promise<Reservation> {
  const { config, log, context, now } = services
  const { reservations } = services.repositories
  const ref = { id: change.id, productSlug: change.productSlug }
  const current = await reservations.get(ref)
  if (!current) throw new NotFoundError(reservationResource.notFoundMessage)
  const target = targetOfRecord(current)
  const units = target && productUnits(target, services)
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
    } else if (target) {
      const product = asShown(target)
      const status = updated.status
      const changedAt = updated.statusChangedAt
      const mailer = services.notifiers.mailer
      dispatchNotifications(context, log, [
        async () => {
          // why: the e-mail tells what the reservation still is when it goes: a change staff
          // undo, or a delete, within the delay e-mails nothing
          await new Promise((resolve) => setTimeout(resolve, config.reservationStatusEmailDelayMs))
          const latest = await reservations.get(ref)
          if (latest?.status !== status || latest.statusChangedAt !== changedAt) {
            log.info('reservation.status_email_dropped', {
              reservationId: ref.id,
              status,
              reason: latest ? 'changed again' : 'deleted',
            })
            return { destination: mailer.destination, outcome: 'skipped', error: 'superseded' }
          }
          const email = reservationStatusEmail({
            reservation: latest,
            product,
            productUrl: productUrl(product.slug, config.storefrontUrl),
            status,
            // why: what staff chose is what is sent: the choice stored with the notes, not only the
            // one sent with this change
            sharedNote: latest.shareNote && latest.notes ? latest.notes : null,
            manageUrl: status === 'confirmed' ? manageLinkFor(latest, config, log, now) : null,
          })
          // why: one message per applied transition, even when the platform repeats the call
          const key = `reservation-status/${latest.id}/${status}/${changedAt}`
          return isLineReservation(latest)
            ? pushReservationMessage(latest, email, key, lineDepsOf(services))
            : mailer.send({ to: latest.email, ...email }, { idempotencyKey: key })
        },
      ])
    }
  }
  return updated
}
