import { requireProduct, type ReservationForm } from '../forms/customerForm.js'
import {
  reservationConfirmationEmail,
  reservationTeamChatMessage,
} from '../messages/reservationMessages.js'
import { sendConfirmation } from '../notifiers/confirmationEmail.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { productUrl } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { newReservationId, reservationClaimKey } from '../storage/blobLayout.js'
import { isSuppressed, recordFormConsent } from '../compliance/signupCompliance.js'
import type { Reservation } from '../storage/records.js'
import { markDemand } from '../demand/demandMarks.js'
import { manageLinkFor } from './manageLink.js'
import { checkReservable } from './preorderRules.js'
import { productUnits } from './productUnits.js'

/**
 * A reservation repeated with the same e-mail, product and name within this time (a double
 * click, a retried request, a reload that re-posts) answers the first one's id and sends nothing
 * again. Later, or with another name, it is a new reservation (§4.10 allows several per e-mail).
 */
const REPEAT_WINDOW_MS = 5 * 60_000

/**
 * POST /api/reservation (§4.10): checks the product exists (D1), its window and its cap (the
 * units are taken before the record is stored: docs/architecture.md "The reservation cap"),
 * stores a new pending reservation (a repeat within REPEAT_WINDOW_MS answers the first one and
 * takes no units), then sends the
 * team-chat message and the customer's confirmation without waiting for them (§6). The
 * community chat gets nothing: a reservation is private.
 */
export async function createReservation(
  form: ReservationForm,
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now'>,
): Promise<{ reservationId: string }> {
  const { config, log, context, now } = services
  const product = requireProduct(form.productSlug)
  checkReservable(product, form.quantity, now())
  const { reservations, claims } = services.repositories
  const units = productUnits(product, services)
  const refOf = (id: string) => ({ id, productSlug: product.slug })
  const reservation: Reservation = {
    id: newReservationId(),
    name: form.name,
    email: form.email,
    productSlug: product.slug,
    status: 'pending',
    notes: '',
    createdAt: new Date(now()).toISOString(),
    respondedAt: null,
    quantity: form.quantity,
  }
  const outcome = await claims.claimAndCreate({
    key: reservationClaimKey(product.slug, form.email, form.name),
    now,
    holderState: async ({ holderId, claimedAt }) => {
      if (!(await reservations.get(refOf(holderId)))) return 'missing'
      const age = now() - Date.parse(claimedAt)
      return age < REPEAT_WINDOW_MS ? 'live' : 'ended'
    },
    newId: () => reservation.id,
    create: async () => {
      // why: units first, so a record never exists without its units
      await units?.take(reservation.id, form.quantity)
      if (!(await reservations.create(reservation, reservation))) {
        await units?.free(reservation.id)
        throw new Error(`Reservation id ${reservation.id} is already taken`)
      }
    },
    remove: async () => {
      await reservations.remove(reservation)
      await units?.free(reservation.id)
    },
  })
  if (!outcome.won) {
    log.info('reservation.repeated', { reservationId: outcome.holderId, productSlug: product.slug })
    return { reservationId: outcome.holderId }
  }
  log.info('reservation.created', {
    reservationId: reservation.id,
    productSlug: product.slug,
    quantity: form.quantity,
  })
  await markDemand(services, 'reservations', reservation.id, { at: now() })
  const compliance = {
    repositories: services.repositories,
    config,
    log,
    now,
    clientIp: context.ip,
  }
  await recordFormConsent(compliance, {
    email: reservation.email,
    kind: 'reservation',
    recordId: reservation.id,
    productSlug: product.slug,
    source: form.source,
  })
  // why: a bounced or complaining address gets no confirmation e-mail (docs/compliance.md)
  const mailable = !(await isSuppressed(compliance, reservation.email))

  const { notifiers } = services
  const input = {
    reservation,
    product,
    productUrl: productUrl(product.slug, config.siteUrl),
    manageUrl: manageLinkFor(reservation, config, log, now),
  }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatReservation.send(reservationTeamChatMessage(input).slackText),
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
  return { reservationId: reservation.id }
}
