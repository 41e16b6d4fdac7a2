import { isUsableRecordId } from '../storage/recordIds.js'
import type { ProductRecordRef } from '../storage/records.js'
import type { Purpose } from './purposes.js'
import { signToken, verifyToken, type SignOptions } from './signedToken.js'

/**
 * Signed tokens that name one record (a reservation's manage link, a sign-up's confirmation
 * and unsubscribe links): the fields `id` and `productSlug`, each usable as a blob key segment.
 */

export type RecordTokenCheck =
  | { ok: true; ref: ProductRecordRef; expiresAt: number | null; nonce: string | null }
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' | 'expired' }

/** A token of `purpose` naming the record `ref`. */
export function signRecordToken(
  purpose: Purpose,
  ref: ProductRecordRef,
  secret: string,
  options: SignOptions = {},
): string {
  return signToken(purpose, { id: ref.id, productSlug: ref.productSlug }, secret, options)
}

/** Checks a token of `purpose` at `now` (ms); `malformed` unless it names a usable record. */
export function verifyRecordToken(
  purpose: Purpose,
  token: string | null,
  secret: string,
  now: number,
): RecordTokenCheck {
  const check = verifyToken(purpose, token, secret, now)
  if (!check.ok) return { ok: false, reason: check.reason }
  const { id, productSlug } = check.fields
  if (!isUsableRecordId(id) || !isUsableRecordId(productSlug)) {
    return { ok: false, reason: 'malformed' }
  }
  return { ok: true, ref: { id, productSlug }, expiresAt: check.expiresAt, nonce: check.nonce }
}
