import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import { signRecordToken, verifyRecordToken } from '../signing/recordTokens.js'
import { PURPOSES } from '../signing/purposes.js'
import type { ProductRecordRef, Reservation } from '../storage/records.js'

/**
 * Signed links to a reservation's manage page (`/reservation/manage?token=…`): a signed token
 * (signing/signedToken.ts) naming the reservation, ending MANAGE_LINK_LIFETIME_MS after the
 * e-mail, with a nonce of its own: a link used to cancel never acts again (the record keeps the
 * nonces of used links in `usedManageLinks`).
 */

/** How long a manage link works: long enough to reach the release of a pre-order. */
export const MANAGE_LINK_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000

/** What a valid link names. */
export interface ManageLink extends ProductRecordRef {
  /** Expiry, ms since the epoch. */
  exp: number
  /** The link's own id (replay protection). */
  jti: string
}

export type ManageLinkCheck =
  { ok: true; link: ManageLink } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' }

/** A new link token for the reservation, valid MANAGE_LINK_LIFETIME_MS from `now` (ms). */
export function createManageToken(ref: ProductRecordRef, secret: string, now: number): string {
  return signRecordToken(PURPOSES.manageLink, ref, secret, {
    expiresAt: now + MANAGE_LINK_LIFETIME_MS,
    once: true,
  })
}

/** Checks a token: signature in constant time, then expiry against `now` (ms). */
export function verifyManageToken(
  token: string | null,
  secret: string,
  now: number,
): ManageLinkCheck {
  const check = verifyRecordToken(PURPOSES.manageLink, token, secret, now)
  if (!check.ok)
    return { ok: false, reason: check.reason === 'missing' ? 'malformed' : check.reason }
  if (check.expiresAt === null || check.nonce === null) return { ok: false, reason: 'malformed' }
  return { ok: true, link: { ...check.ref, exp: check.expiresAt, jti: check.nonce } }
}

/** The page a link opens. */
export function manageUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/reservation/manage?token=${encodeURIComponent(token)}`
}

/**
 * The manage link for an e-mail, or null (logged once) when RESERVATION_LINK_SECRET is unset:
 * the e-mail then asks the customer to write to the shop instead.
 */
export function manageLinkFor(
  reservation: Pick<Reservation, 'id' | 'productSlug'>,
  config: AppConfig,
  log: Logger,
  now: () => number,
): string | null {
  if (!config.reservationLinkSecret) {
    log.warn('reservation.manage_link_unavailable', {
      reservationId: reservation.id,
      fix: 'set RESERVATION_LINK_SECRET (e.g. `openssl rand -hex 32`) to put manage links in e-mails',
    })
    return null
  }
  return manageUrl(
    config.siteUrl,
    createManageToken(reservation, config.reservationLinkSecret, now()),
  )
}
