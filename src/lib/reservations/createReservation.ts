import { requireTarget, type ReservationForm } from '../forms/customerForm.js'
import { answerOnce } from '../forms/idempotentRequest.js'
import {
  reservationConfirmationEmail,
  reservationTeamChatMessage,
} from '../messages/reservationMessages.js'
import { sendConfirmation } from '../notifiers/confirmationEmail.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { asShown, productUrl, settingsFor, type CatalogueTarget } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { newReservationId } from '../storage/blobLayout.js'
import { isSuppressed, recordFormConsent } from '../compliance/signupCompliance.js'
import type { Reservation } from '../storage/records.js'
import { markDemand } from '../demand/demandMarks.js'
import { manageLinkFor } from './manageLink.js'
import { checkReservable } from './preorderRules.js'
import { isLineReservation, lineDepsOf, pushReservationMessage } from './reservationLine.js'
import { productUnits } from './productUnits.js'

export interface CreateReservationOptions {
  /**
   * The request's `Idempotency-Key` (forms/idempotentRequest.ts): the same key and form again
   * answer the first reservation's id and make nothing. Default: none (every request reserves;
   * §4.10 allows several reservations per e-mail).
   */
  idempotencyKey?: string | null
}

export type ReservationServices = Pick<
  Services,
  'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now'
>

/**
 * POST /api/reservation (§4.10): checks the product exists (D1) and the variant for a product
 * with variants, the window and the cap that apply (the variant's own, else the product's; the
 * units are taken before the record is stored: docs/architecture.md "The reservation cap"),
 * stores a new pending reservation, then sends the team-chat message and the customer's
 * confirmation without waiting for them (§6). The community chat gets nothing: a reservation is
 * private.
 */
export async function createReservation(
  form: ReservationForm,
  services: ReservationServices,
  { idempotencyKey = null }: CreateReservationOptions = {},
): Promise<{ reservationId: string }> {
  const target = requireTarget(form)
  return answerOnce(
    {
      keys: services.repositories.idempotencyKeys,
      operation: 'reservation',
      key: idempotencyKey,
      request: form,
      now: services.now,
      log: services.log,
    },
    () => reserve(form, target, services),
  )
}

async function reserve(
  form: ReservationForm,
  target: CatalogueTarget,
  services: ReservationServices,
): Promise<{ reservationId: string }> {
  const { log, now } = services
  const { product, variant } = target
  checkReservable(settingsFor(product, variant), form.quantity, now())
  const { reservations } = services.repositories
  const units = productUnits(target, services)
  const reservation: Reservation = {
    id: newReservationId(),
    name: form.name,
    email: form.email,
    productSlug: product.slug,
    ...(variant ? { variant: variant.id } : {}),
    status: 'pending',
    notes: '',
    createdAt: new Date(now()).toISOString(),
    respondedAt: null,
    quantity: form.quantity,
  }
  // why: units first, so a record never exists without its units
  await units?.take(reservation.id, form.quantity)
  if (!(await reservations.create(reservation, reservation))) {
    await units?.free(reservation.id)
    throw new Error(`Reservation id ${reservation.id} is already taken`)
  }
  log.info('reservation.created', {
    reservationId: reservation.id,
    productSlug: product.slug,
    ...(variant ? { variant: variant.id } : {}),
    quantity: form.quantity,
  })
  await announceReservation(reservation, target, services, form.source)
  return { reservationId: reservation.id }
}

/**
 * What follows a new reservation, whichever way it was made (the form, a claimed hold): the
 * demand mark, the consent record (of the form's `source`; none for `null`), then the team-chat
 * message and the customer's confirmation without waiting for them (§6). The community chat gets
 * nothing: a reservation is private.
 */
export async function announceReservation(
  reservation: Reservation,
  target: CatalogueTarget,
  services: ReservationServices,
  source: ReservationForm['source'] | null,
): Promise<void> {
  const { config, log, context, now } = services
  const { product } = target
  await markDemand(services, 'reservations', reservation.id, { at: now() })
  const compliance = {
    repositories: services.repositories,
    config,
    log,
    now,
    clientIp: context.ip,
  }
  if (source !== null) {
    await recordFormConsent(compliance, {
      email: reservation.email,
      kind: 'reservation',
      recordId: reservation.id,
      productSlug: product.slug,
      source,
    })
  }
  const line = isLineReservation(reservation)
  // why: a bounced or complaining address gets no confirmation e-mail (docs/compliance.md)
  const mailable = !line && !(await isSuppressed(compliance, reservation.email))

  const { notifiers } = services
  const input = {
    reservation,
    product: asShown(target),
    productUrl: productUrl(product.slug, config.storefrontUrl),
    manageUrl: manageLinkFor(reservation, config, log, now),
  }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatReservation.send(reservationTeamChatMessage(input).slackText),
    ...(line
      ? [
          () =>
            pushReservationMessage(
              reservation,
              reservationConfirmationEmail(input),
              `reservation-confirmation/${reservation.id}`,
              lineDepsOf(services),
            ),
        ]
      : []),
    ...(mailable
      ? [
          () =>
            sendConfirmation(
              { to: reservation.email, ...reservationConfirmationEmail(input) },
              {
                mailer: notifiers.mailer,
                limits: services.repositories.confirmationLimits,
                // why: a replayed call (platform retry) must not mail the customer twice
                idempotencyKey: `reservation-confirmation/${reservation.id}`,
                recordId: reservation.id,
                now: new Date(now()),
                log,
              },
            ),
        ]
      : []),
  ])
}
