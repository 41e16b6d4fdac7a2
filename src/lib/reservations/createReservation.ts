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
import type { Reservation } from '../storage/records.js'

/**
 * A reservation repeated with the same e-mail, product and name within this time (a double
 * click, a retried request, a reload that re-posts) answers the first one's id and sends nothing
 * again. Later, or with another name, it is a new reservation (§4.10 allows several per e-mail).
 */
const REPEAT_WINDOW_MS = 5 * 60_000

export interface CreateReservationOptions {
  /** Clock. Default: `() => new Date()`. */
  now?: () => Date
}

/**
 * POST /api/reservation (§4.10): checks the product exists (D1), stores a new pending
 * reservation (a repeat within REPEAT_WINDOW_MS answers the first one), then sends the
 * team-chat message and the customer's confirmation without waiting for them (§6). The
 * community chat gets nothing: a reservation is private.
 */
export async function createReservation(
  form: ReservationForm,
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context'>,
  { now = () => new Date() }: CreateReservationOptions = {},
): Promise<{ reservationId: string }> {
  const { config, log, context } = services
  const product = requireProduct(form.productSlug)
  const { reservations, claims } = services.repositories
  const refOf = (id: string) => ({ id, productSlug: product.slug })
  const reservation: Reservation = {
    id: newReservationId(),
    name: form.name,
    email: form.email,
    productSlug: product.slug,
    status: 'pending',
    notes: '',
    createdAt: now().toISOString(),
    respondedAt: null,
  }
  const outcome = await claims.claimAndCreate({
    key: reservationClaimKey(product.slug, form.email, form.name),
    now,
    holderState: async ({ holderId, claimedAt }) => {
      if (!(await reservations.get(refOf(holderId)))) return 'missing'
      const age = now().getTime() - Date.parse(claimedAt)
      return age < REPEAT_WINDOW_MS ? 'live' : 'ended'
    },
    newId: () => reservation.id,
    create: async () => {
      if (!(await reservations.create(reservation, reservation))) {
        throw new Error(`Reservation id ${reservation.id} is already taken`)
      }
    },
    remove: async () => void (await reservations.remove(reservation)),
  })
  if (!outcome.won) {
    log.info('reservation.repeated', { reservationId: outcome.holderId, productSlug: product.slug })
    return { reservationId: outcome.holderId }
  }
  log.info('reservation.created', { reservationId: reservation.id, productSlug: product.slug })

  const { notifiers } = services
  const input = { reservation, product, productUrl: productUrl(product.slug, config.siteUrl) }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatReservation.send(reservationTeamChatMessage(input).slackText),
    () =>
      sendConfirmation(
        { to: reservation.email, ...reservationConfirmationEmail(input) },
        {
          mailer: notifiers.mailer,
          limits: services.repositories.confirmationLimits,
          // why: a replayed call (platform retry) must not mail the customer twice
          idempotencyKey: `reservation-confirmation/${reservation.id}`,
          recordId: reservation.id,
          now: now(),
          log,
        },
      ),
  ])
  return { reservationId: reservation.id }
}
