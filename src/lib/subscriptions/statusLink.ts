import { PURPOSES } from '../signing/purposes.js'
import { signRecordToken, verifyRecordToken } from '../signing/recordTokens.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * Signed links to a restock sign-up's 「入荷待ちの状況」 page (`/notify/status?token=…`): a signed
 * token (signing/signedToken.ts) naming the sign-up, under UNSUBSCRIBE_SECRET with a purpose of
 * its own, so it works as no other link. It ends STATUS_LINK_LIFETIME_MS after it was made (the
 * e-mail or page that carries it). The page only reads, so opening it again acts the same: no
 * nonce (docs/decisions-local.md "The queue place").
 */

/**
 * How long a status link works: a year, longer than a sign-up waits by default
 * (SIGNUP_EXPIRY_DAYS 180 and 14 days for the answer), so the link of the welcome e-mail lasts
 * as long as the sign-up it names, while a forwarded or leaked e-mail stops showing it in time.
 */
export const STATUS_LINK_LIFETIME_MS = 365 * 24 * 60 * 60_000

export type StatusLinkCheck =
  | { ok: true; ref: ProductRecordRef }
  | { ok: false; reason: 'malformed' | 'bad-signature' | 'expired' }

/** The token of one sign-up's status page, valid STATUS_LINK_LIFETIME_MS from `now` (ms). */
export function createStatusToken(ref: ProductRecordRef, secret: string, now: number): string {
  return signRecordToken(
    PURPOSES.statusLink,
    { id: ref.id, productSlug: ref.productSlug },
    secret,
    { expiresAt: now + STATUS_LINK_LIFETIME_MS },
  )
}

/** The page a link opens: `${siteUrl}/notify/status?token=...`. */
export function statusUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/notify/status?token=${encodeURIComponent(token)}`
}

/** The status page's address for one sign-up, made at `now` (ms); null without a secret. */
export function statusLinkFor(
  ref: ProductRecordRef,
  config: { siteUrl: string; unsubscribeSecret: string | null },
  now: number,
): string | null {
  if (!config.unsubscribeSecret) return null
  return statusUrl(config.siteUrl, createStatusToken(ref, config.unsubscribeSecret, now))
}

/** Checks a token in constant time, then its expiry against `now` (ms). */
export function verifyStatusToken(
  token: string | null,
  secret: string,
  now: number,
): StatusLinkCheck {
  const check = verifyRecordToken(PURPOSES.statusLink, token, secret, now)
  if (!check.ok) {
    return { ok: false, reason: check.reason === 'missing' ? 'malformed' : check.reason }
  }
  if (check.expiresAt === null) return { ok: false, reason: 'malformed' }
  return { ok: true, ref: check.ref }
}
