import type { AppConfig } from '../config.js'
import { requireProduct, type ReservationForm } from '../forms/customerForm.js'
import type { Logger } from '../log.js'
import {
  reservationConfirmationEmail,
  reservationTeamChatMessage,
} from '../messages/reservationMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { createShopNotifiers } from '../notifiers/shopNotifiers.js'
import { productUrl } from '../productCatalogue.js'
import type { Reservation } from '../storage/records.js'
import { openRepositories, type RequestContextLike } from '../storage/repositories.js'

export interface CreateReservationDeps {
  context: RequestContextLike
  config: AppConfig
  log: Logger
  /** Clock, for tests. Default: `() => new Date()`. */
  now?: () => Date
}

/**
 * POST /api/reservation (§4.10): checks the product exists (D1), stores a new pending
 * reservation, then sends the team-chat message and the customer's confirmation without waiting
 * for them (§6). The community chat gets nothing: a reservation is private.
 */
export async function createReservation(
  form: ReservationForm,
  { context, config, log, now = () => new Date() }: CreateReservationDeps,
): Promise<{ reservationId: string }> {
  const product = requireProduct(form.productSlug)
  const reservation: Reservation = {
    id: `res_${crypto.randomUUID()}`,
    name: form.name,
    email: form.email,
    productSlug: product.slug,
    status: 'pending',
    notes: '',
    createdAt: now().toISOString(),
    respondedAt: null,
  }
  await openRepositories(context).reservations.save(reservation, reservation)
  log.info('reservation.created', { reservationId: reservation.id, productSlug: product.slug })

  const notifiers = createShopNotifiers(config, log)
  const input = { reservation, product, productUrl: productUrl(product.slug, config.siteUrl) }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatReservation.send(reservationTeamChatMessage(input).slackText),
    () =>
      notifiers.mailer.send(
        { to: reservation.email, ...reservationConfirmationEmail(input) },
        // why: a replayed call (platform retry) must not mail the customer twice
        { idempotencyKey: `reservation-confirmation/${reservation.id}` },
      ),
  ])
  return { reservationId: reservation.id }
}
