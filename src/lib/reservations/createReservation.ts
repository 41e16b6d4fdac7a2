import { createHash } from 'node:crypto'
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
import { isSuppressed, recordFormConsent } from '../compliance/signupCompliance.js'
import { openStore, RECORDS_STORE } from '../storage/blobStore.js'
import { openComplianceStores } from '../storage/complianceStores.js'
import { claimAndCreate } from '../storage/recordClaims.js'
import type { Reservation } from '../storage/records.js'
import { openRepositories } from '../storage/repositories.js'
import type { RequestContext } from '../requestContext.js'

/**
 * A reservation repeated with the same e-mail, product and name within this time (a double
 * click, a retried request, a reload that re-posts) answers the first one's id and sends nothing
 * again. Later, or with another name, it is a new reservation (§4.10 allows several per e-mail).
 */
export const REPEAT_WINDOW_MS = 5 * 60_000

/** The claim key of a submission; e-mail and name are hashed, so no personal data is in a key. */
export function reservationClaimKey(productSlug: string, email: string, name: string): string {
  const digest = createHash('sha256').update(`${email}\n${name}`).digest('hex')
  return `reservation-claims/${productSlug}/${digest}`
}

export interface CreateReservationDeps {
  context: RequestContext
  config: AppConfig
  log: Logger
  /** Clock, for tests. Default: `() => new Date()`. */
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
  { context, config, log, now = () => new Date() }: CreateReservationDeps,
): Promise<{ reservationId: string }> {
  const product = requireProduct(form.productSlug)
  const { reservations } = openRepositories(context)
  const refOf = (id: string) => ({ id, productSlug: product.slug })
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
  const outcome = await claimAndCreate({
    store: openStore(RECORDS_STORE, context),
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
  const compliance = {
    stores: openComplianceStores(context),
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

  const notifiers = createShopNotifiers(config, log)
  const input = { reservation, product, productUrl: productUrl(product.slug, config.siteUrl) }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatReservation.send(reservationTeamChatMessage(input).slackText),
    ...(mailable
      ? [
          () =>
            notifiers.mailer.send(
              { to: reservation.email, ...reservationConfirmationEmail(input) },
              // why: a replayed call (platform retry) must not mail the customer twice
              { idempotencyKey: `reservation-confirmation/${reservation.id}` },
            ),
        ]
      : []),
  ])
  return { reservationId: reservation.id }
}
