import type { AppConfig } from '../config.js'
import { UnauthorizedError } from '../errors.js'
import type { Logger } from '../log.js'
import { PURPOSES } from '../signing/purposes.js'
import { checkTicket, issueTicket } from '../signing/tickets.js'
import type { DeliveryJobStore } from '../storage/deliveryJobStore.js'
import { runDelivery, type DeliveryRunOptions, type DeliveryRunResult } from './deliveryRun.js'

/**
 * The delivery ticket: how the background delivery function knows that this deploy started it:
 * a signed ticket (signing/tickets.ts) whose subject is the notification id, keyed by a key
 * derived from UNSUBSCRIBE_SECRET (which every e-mail delivery needs anyway) and this purpose, so
 * it is worth nothing as an unsubscribe token and vice versa. A ticket names one
 * notification, lives DELIVERY_TICKET_TTL_MS and is spent by the run it starts: a replayed
 * ticket is refused (docs/architecture.md "Restock delivery").
 */

/** How long a ticket may take from the starter to the background function. */
export const DELIVERY_TICKET_TTL_MS = 5 * 60 * 1000

/** What a valid ticket says. */
export interface DeliveryTicket {
  notificationId: string
  /** Expiry, ms since the epoch. */
  expiresAt: number
  /** Single use: the run that spends it records it (storage `spendTicket`). */
  nonce: string
}

/** A ticket for one run of the delivery of `notificationId`, valid from `now` for the TTL. */
export function issueDeliveryTicket(notificationId: string, secret: string, now: number): string {
  return issueTicket(PURPOSES.deliveryTicket, notificationId, secret, now, DELIVERY_TICKET_TTL_MS)
}

/**
 * Checks the bearer ticket of a request to the delivery function at `now`; throws 401
 * `Unauthorized` (and logs why) unless it is well signed and live. The endpoint wrapper calls it
 * before reading the body; `admitDeliveryTicket` then checks what it names and spends it.
 */
export function requireDeliveryTicket(
  bearer: string | null,
  config: Pick<AppConfig, 'unsubscribeSecret'>,
  log: Logger,
  now: number,
): DeliveryTicket {
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error(
      'restock.delivery.misconfigured',
      new Error('UNSUBSCRIBE_SECRET is not set, so no delivery ticket can be checked'),
    )
    throw new UnauthorizedError('Unauthorized')
  }
  const check = checkTicket(PURPOSES.deliveryTicket, bearer, secret, now)
  if (!check.ok) return refuse(log, check.reason)
  return { notificationId: check.subject, expiresAt: check.expiresAt, nonce: check.nonce }
}

/**
 * One run of the background function: admits its delivery ticket once — it must name this
 * notice (else it is foreign) and must not have been spent (else it is a replay), 401
 * `Unauthorized` otherwise — then runs the delivery with the wired dependencies.
 */
export async function runTicketedDelivery(
  bearer: string | null,
  notificationId: string,
  services: {
    config: Pick<AppConfig, 'unsubscribeSecret'>
    log: Logger
    repositories: { deliveries: Pick<DeliveryJobStore, 'spendTicket'> }
    deliveryRun(): DeliveryRunOptions
    now: () => number
  },
): Promise<DeliveryRunResult> {
  const { config, log } = services
  const now = services.now()
  const ticket = requireDeliveryTicket(bearer, config, log, now)
  if (ticket.notificationId !== notificationId) return refuse(log, 'foreign')
  if (!(await services.repositories.deliveries.spendTicket(ticket.nonce, ticket.expiresAt, now))) {
    return refuse(log, 'replayed')
  }
  return runDelivery(notificationId, services.deliveryRun())
}

function refuse(log: Logger, reason: string): never {
  log.warn('restock.delivery.ticket_rejected', { reason })
  throw new UnauthorizedError('Unauthorized')
}
