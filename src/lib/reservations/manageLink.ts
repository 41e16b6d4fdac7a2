import { createHmac, timingSafeEqual } from 'node:crypto'
import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import { isUsableRecordId } from '../storage/recordIds.js'
import type { ProductRecordRef, Reservation } from '../storage/records.js'

/**
 * Signed links to a reservation's manage page (`/reservation/manage?token=…`):
 * `base64url(JSON {id, productSlug, exp, jti})` + `.` + `base64url(HMAC-SHA256(secret, purpose +
 * payload))`. The signature is over the payload as sent, compared in constant time; `exp` (ms)
 * ends the link; `jti` names the link, so a link used to cancel never acts again (the record
 * keeps the ids of used links).
 */

/** How long a manage link works: long enough to reach the release of a pre-order. */
export const MANAGE_LINK_LIFETIME_MS = 180 * 24 * 60 * 60 * 1000

const PURPOSE = 'reservation-manage/v1'
const SIGNATURE_LENGTH = 43 // base64url of 32 bytes, no padding
const PART = /^[A-Za-z0-9_-]+$/

/** What a valid link names. */
export interface ManageLink extends ProductRecordRef {
  /** Expiry, ms since the epoch. */
  exp: number
  /** The link's own id (replay protection). */
  jti: string
}

export type ManageLinkCheck =
  { ok: true; link: ManageLink } | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' }

function sign(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(`${PURPOSE}\n${payload}`).digest('base64url')
}

/** A new link token for the reservation, valid MANAGE_LINK_LIFETIME_MS from `now`. */
export function createManageToken(ref: ProductRecordRef, secret: string, now: Date): string {
  const link: ManageLink = {
    id: ref.id,
    productSlug: ref.productSlug,
    exp: now.getTime() + MANAGE_LINK_LIFETIME_MS,
    jti: crypto.randomUUID(),
  }
  const payload = Buffer.from(JSON.stringify(link)).toString('base64url')
  return `${payload}.${sign(payload, secret)}`
}

/** Checks a token: signature in constant time, then expiry against `now`. */
export function verifyManageToken(
  token: string | null,
  secret: string,
  now: Date,
): ManageLinkCheck {
  const parts = (token ?? '').trim().split('.')
  if (parts.length !== 2 || !PART.test(parts[0]) || !PART.test(parts[1])) {
    return { ok: false, reason: 'malformed' }
  }
  if (parts[1].length !== SIGNATURE_LENGTH) return { ok: false, reason: 'malformed' }
  const expected = Buffer.from(sign(parts[0], secret))
  if (!timingSafeEqual(expected, Buffer.from(parts[1]))) {
    return { ok: false, reason: 'bad-signature' }
  }
  const link = decodeLink(parts[0])
  if (!link) return { ok: false, reason: 'malformed' }
  if (now.getTime() >= link.exp) return { ok: false, reason: 'expired' }
  return { ok: true, link }
}

function decodeLink(part: string): ManageLink | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    const { id, productSlug, exp, jti } = value
    if (!isUsableRecordId(id) || !isUsableRecordId(productSlug)) return null
    if (typeof exp !== 'number' || typeof jti !== 'string' || !isUsableRecordId(jti)) return null
    return { id, productSlug, exp, jti }
  } catch {
    return null
  }
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
  now: () => Date,
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
