import { PURPOSES } from '../signing/purposes.js'
import { signRecordToken, verifyRecordToken } from '../signing/recordTokens.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * Signed unsubscribe tokens (D9): a signed token (signing/signedToken.ts) naming one
 * subscription, under UNSUBSCRIBE_SECRET with a purpose of its own. Altering any part breaks the
 * signature; the same subscription always gets the same token. Tokens do not expire: a restock
 * e-mail's link must keep working for as long as the subscription exists.
 */

/** UNSUBSCRIBE_SECRET is unset, so no unsubscribe link can be made or checked. */
export class MissingUnsubscribeSecretError extends Error {
  override name = 'MissingUnsubscribeSecretError'
  constructor() {
    super(
      'UNSUBSCRIBE_SECRET is not set, so restock e-mails cannot carry a valid unsubscribe link ' +
        'and unsubscribe links cannot be checked. Set it to a long random value ' +
        '(e.g. `openssl rand -hex 32`) in the site environment.',
    )
  }
}

export type UnsubscribeCheck =
  { ok: true; ref: ProductRecordRef } | { ok: false; reason: 'malformed' | 'bad-signature' }

/** The token for one subscription; the same inputs always give the same token. */
export function createUnsubscribeToken(ref: ProductRecordRef, secret: string): string {
  return signRecordToken(PURPOSES.unsubscribeLink, ref, secret)
}

/** The page an e-mail links to: `${siteUrl}/api/notify-unsubscribe?token=...`. */
export function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/api/notify-unsubscribe?token=${encodeURIComponent(token)}`
}

/** Checks a token in constant time; `malformed` when it cannot be a token at all. */
export function verifyUnsubscribeToken(token: string | null, secret: string): UnsubscribeCheck {
  // why: an unsubscribe link never expires, so no clock decides anything here
  const check = verifyRecordToken(PURPOSES.unsubscribeLink, token, secret, 0)
  if (check.ok) return { ok: true, ref: check.ref }
  return { ok: false, reason: check.reason === 'bad-signature' ? 'bad-signature' : 'malformed' }
}
