import { createHmac, timingSafeEqual } from 'node:crypto'
import { isUsableRecordId } from '../storage/recordIds.js'
import type { ProductRecordRef } from '../storage/records.js'

/**
 * Signed unsubscribe tokens (D9): `base64url(JSON {id, productSlug})` + `.` +
 * `base64url(HMAC-SHA256(UNSUBSCRIBE_SECRET, purpose, id, productSlug))`. A token names exactly one
 * subscription; altering either part breaks the signature, and a payload that is not exactly the
 * canonical encoding (extra or reordered fields, other escapes) is refused as malformed, so one
 * subscription has exactly one token. Tokens do not expire: a restock
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

export type TokenCheck =
  { ok: true; ref: ProductRecordRef } | { ok: false; reason: 'malformed' | 'bad-signature' }

const SIGNATURE_PURPOSE = 'restock-unsubscribe/v1'
const SIGNATURE_LENGTH = 43 // base64url of 32 bytes, no padding

function signature(ref: ProductRecordRef, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${SIGNATURE_PURPOSE}\n${ref.id}\n${ref.productSlug}`)
    .digest('base64url')
}

/** The token for one subscription; the same inputs always give the same token. */
export function createUnsubscribeToken(ref: ProductRecordRef, secret: string): string {
  return `${canonicalPayload(ref)}.${signature(ref, secret)}`
}

/** The page an e-mail links to: `${siteUrl}/api/notify-unsubscribe?token=...`. */
export function unsubscribeUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/api/notify-unsubscribe?token=${encodeURIComponent(token)}`
}

/** The payload part of a subscription's token: the one encoding that is ever signed. */
function canonicalPayload(ref: ProductRecordRef): string {
  return Buffer.from(JSON.stringify({ id: ref.id, productSlug: ref.productSlug })).toString(
    'base64url',
  )
}

function decodePayload(part: string): ProductRecordRef | null {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return null
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    if (typeof value !== 'object' || value === null) return null
    const { id, productSlug } = value as Record<string, unknown>
    if (!isUsableRecordId(id) || !isUsableRecordId(productSlug)) return null
    const ref = { id, productSlug }
    // why: extra, reordered, duplicated or re-escaped fields would make many tokens of one
    // signature; only the canonical encoding the service itself writes is a token
    return canonicalPayload(ref) === part ? ref : null
  } catch {
    return null
  }
}

/** Checks a token in constant time; `malformed` when it cannot be a token at all. */
export function verifyUnsubscribeToken(token: string | null, secret: string): TokenCheck {
  const parts = (token ?? '').trim().split('.')
  if (parts.length !== 2) return { ok: false, reason: 'malformed' }
  const ref = decodePayload(parts[0])
  if (!ref || !/^[A-Za-z0-9_-]+$/.test(parts[1]) || parts[1].length !== SIGNATURE_LENGTH) {
    return { ok: false, reason: 'malformed' }
  }
  const expected = Buffer.from(signature(ref, secret))
  const given = Buffer.from(parts[1])
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'bad-signature' }
  return { ok: true, ref }
}
