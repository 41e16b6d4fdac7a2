import { PURPOSES } from '../signing/purposes.js'
import { signToken, verifyToken } from '../signing/signedToken.js'
import { isUsableRecordId } from '../storage/recordIds.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * The keep link of the 「引き続き入荷のお知らせを希望されますか」 e-mail a long-waiting sign-up
 * gets (subscriptions/signupExpiry.ts): a signed token (signing/signedToken.ts) under
 * UNSUBSCRIBE_SECRET with a purpose of its own, naming the sign-up and the question it answers
 * (`a`: when it was asked). It expires when the sign-up would end unanswered (KEEP_ANSWER_MS
 * after the question); it keeps the sign-up once: used again, or for a question that is no longer
 * the open one, it changes nothing.
 */

/** How long a sign-up waits for the answer to its question before it ends (14 days). */
export const KEEP_ANSWER_MS = 14 * 24 * 60 * 60_000

export type KeepCheck =
  | { ok: true; ref: ProductRecordRef; askedAt: string }
  | { ok: false; reason: 'malformed' | 'bad-signature' }
  /** Genuine, but past its expiry: the sign-up it names has ended (or is about to). */
  | { ok: false; reason: 'expired'; ref: ProductRecordRef | null }

/** The keep token of the question asked `askedAt` (ISO) about one sign-up. */
export function createKeepToken(ref: ProductRecordRef, askedAt: string, secret: string): string {
  const expiresAt = Date.parse(askedAt) + KEEP_ANSWER_MS
  return signToken(
    PURPOSES.keepLink,
    { id: ref.id, productSlug: ref.productSlug, a: askedAt },
    secret,
    { expiresAt },
  )
}

/** The page an e-mail links to: `${siteUrl}/api/notify-keep?token=...`. */
export function keepUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/api/notify-keep?token=${encodeURIComponent(token)}`
}

/** Checks a token in constant time, then its expiry against `now` (ms). */
export function verifyKeepToken(token: string | null, secret: string, now: number): KeepCheck {
  const check = verifyToken(PURPOSES.keepLink, token, secret, now)
  if (!check.ok && check.reason !== 'expired') {
    return { ok: false, reason: check.reason === 'bad-signature' ? 'bad-signature' : 'malformed' }
  }
  const { id, productSlug, a } = check.fields
  const usable =
    isUsableRecordId(id) && isUsableRecordId(productSlug) && !Number.isNaN(Date.parse(a))
  if (!check.ok) return { ok: false, reason: 'expired', ref: usable ? { id, productSlug } : null }
  if (!usable || check.expiresAt === null) return { ok: false, reason: 'malformed' }
  return { ok: true, ref: { id, productSlug }, askedAt: a }
}
