import { PURPOSES } from '../signing/purposes.js'
import { signRecordToken, verifyRecordToken } from '../signing/recordTokens.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * Signed confirmation links of double opt-in (docs/compliance.md): a signed token
 * (signing/signedToken.ts) naming the sign-up, under UNSUBSCRIBE_SECRET with a purpose of its own,
 * so neither it nor the unsubscribe link works as the other. A token expires with its sign-up
 * (7 days after it was made); using it twice confirms once (the second use finds it confirmed and
 * changes nothing).
 */

/** How long an unconfirmed double opt-in sign-up waits for its confirmation (then it is deleted). */
export const UNCONFIRMED_TTL_MS = 7 * 24 * 60 * 60_000

export type ConfirmationCheck =
  | { ok: true; ref: ProductRecordRef; expiresAt: number }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' }

/** The token for one sign-up, valid until `expiresAt` (ms). */
export function createConfirmationToken(
  ref: ProductRecordRef,
  expiresAt: number,
  secret: string,
): string {
  return signRecordToken(PURPOSES.confirmLink, ref, secret, { expiresAt })
}

/** The page an e-mail links to: `${siteUrl}/api/notify-confirm?token=...`. */
export function confirmationUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/api/notify-confirm?token=${encodeURIComponent(token)}`
}

/** Checks a token in constant time, then its expiry against `now` (ms). */
export function verifyConfirmationToken(
  token: string | null,
  secret: string,
  now: number,
): ConfirmationCheck {
  const check = verifyRecordToken(PURPOSES.confirmLink, token, secret, now)
  if (!check.ok)
    return { ok: false, reason: check.reason === 'missing' ? 'malformed' : check.reason }
  if (check.expiresAt === null) return { ok: false, reason: 'malformed' }
  return { ok: true, ref: check.ref, expiresAt: check.expiresAt }
}
