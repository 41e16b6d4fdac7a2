import { createHmac, timingSafeEqual } from 'node:crypto'
import { isUsableRecordId } from '../storage/recordIds.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * Signed confirmation links of double opt-in (docs/compliance.md): `base64url(JSON {id,
 * productSlug, exp})` + `.` + `base64url(HMAC-SHA256(UNSUBSCRIBE_SECRET, purpose, id,
 * productSlug, exp))`. The purpose differs from the unsubscribe link's, so neither token works as
 * the other. A token expires with its sign-up (7 days after it was made); using it twice confirms
 * once (the second use finds it confirmed and changes nothing).
 */

/** How long an unconfirmed double opt-in sign-up waits for its confirmation (then it is deleted). */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 60 * 60_000

export type ConfirmationCheck =
  | { ok: true; ref: ProductRecordRef; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' }

const PURPOSE = 'restock-confirm/v1'
const SIGNATURE_LENGTH = 43
const PART = /^[A-Za-z0-9_-]+$/

function signature(ref: ProductRecordRef, expiresAt: number, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${PURPOSE}\n${ref.id}\n${ref.productSlug}\n${expiresAt}`)
    .digest('base64url')
}

/** The token for one sign-up, valid until `expiresAt` (ms). */
export function createConfirmationToken(
  ref: ProductRecordRef,
  expiresAt: number,
  secret: string,
): string {
  const payload = Buffer.from(
    JSON.stringify({ id: ref.id, productSlug: ref.productSlug, exp: expiresAt }),
  ).toString('base64url')
  return `${payload}.${signature(ref, expiresAt, secret)}`
}

/** The page an e-mail links to: `${siteUrl}/api/notify-confirm?token=...`. */
export function confirmationUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/api/notify-confirm?token=${encodeURIComponent(token)}`
}

function decode(part: string): { ref: ProductRecordRef; exp: number } | null {
  if (!PART.test(part)) return null
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    const { id, productSlug, exp } = value ?? {}
    if (!isUsableRecordId(id) || !isUsableRecordId(productSlug)) return null
    if (typeof exp !== 'number' || !Number.isSafeInteger(exp)) return null
    return { ref: { id, productSlug }, exp }
  } catch {
    return null
  }
}

/** Checks a token in constant time, then its expiry against `now` (ms). */
export function verifyConfirmationToken(
  token: string | null,
  secret: string,
  now: number,
): ConfirmationCheck {
  const parts = (token ?? '').trim().split('.')
  if (parts.length !== 2) return { ok: false, reason: 'malformed' }
  const decoded = decode(parts[0])
  if (!decoded || !PART.test(parts[1]) || parts[1].length !== SIGNATURE_LENGTH) {
    return { ok: false, reason: 'malformed' }
  }
  const expected = Buffer.from(signature(decoded.ref, decoded.exp, secret))
  if (!timingSafeEqual(expected, Buffer.from(parts[1])))
    return { ok: false, reason: 'bad-signature' }
  if (now >= decoded.exp) return { ok: false, reason: 'expired' }
  return { ok: true, ref: decoded.ref, expiresAt: decoded.exp }
}
