import { createHmac, randomUUID } from 'node:crypto'
import { olderFormatOf } from './olderFormats.js'
import {
  checkExpiry,
  purposeKey,
  sameSignature,
  type Purpose,
  type TokenCheck,
  type TokenClaims,
  type TokenFields,
} from './purposes.js'

/**
 * The one signing module: every signed link and ticket the service makes is a signed token
 *
 *     v1.<base64url(JSON {...fields, e?: expiry ms, r?: nonce})>.<base64url(HMAC-SHA256(key, "v1." + payload))>
 *
 * where `key` = HMAC-SHA256(secret, purpose): each purpose signs with its own key, so a token of
 * one purpose is worth nothing for another even under the same secret. The signature covers the
 * payload exactly as sent and is compared in constant time, before the payload is read; `e` ends
 * the token; `r` (single-use tokens only) is the nonce its receiver spends to refuse a replay.
 * A link whose fields travel as a query of their own (the click link) carries only the
 * signature of that token (`signatureFor`). Links already e-mailed in an older format of their
 * purpose are still accepted (olderFormats.ts).
 */

const VERSION = 'v1'
const SIGNATURE_LENGTH = 43 // base64url of 32 bytes, no padding
const PART = /^[A-Za-z0-9_-]+$/

export interface SignOptions {
  /** When the token stops acting, ms since the epoch. Default: never. */
  expiresAt?: number
  /** Give the token a nonce of its own, for a receiver that spends it. Default: false. */
  once?: boolean
}

function signatureOf(purpose: Purpose, payload: string, secret: string): string {
  return createHmac('sha256', purposeKey(purpose, secret))
    .update(`${VERSION}.${payload}`)
    .digest('base64url')
}

/** A token of `purpose` carrying `fields`, signed with `secret`. */
export function signToken(
  purpose: Purpose,
  fields: TokenFields,
  secret: string,
  { expiresAt, once = false }: SignOptions = {},
): string {
  const payload = payloadOf(fields, expiresAt, once ? randomUUID() : undefined)
  return `${VERSION}.${payload}.${signatureOf(purpose, payload, secret)}`
}

function payloadOf(fields: TokenFields, expiresAt?: number, nonce?: string): string {
  const claims: Record<string, string | number> = { ...fields }
  if (expiresAt !== undefined) claims.e = expiresAt
  if (nonce !== undefined) claims.r = nonce
  return Buffer.from(JSON.stringify(claims)).toString('base64url')
}

/**
 * The signature of a token of `purpose` carrying `fields` (in this order) and `expiresAt`, for a
 * link whose fields travel apart from it (a click link's query, whose shape the API documents):
 * the same key, payload and HMAC as `signToken`'s.
 */
export function signatureFor(
  purpose: Purpose,
  fields: TokenFields,
  secret: string,
  expiresAt?: number,
): string {
  return signatureOf(purpose, payloadOf(fields, expiresAt), secret)
}

/**
 * Checks a signature made by `signatureFor` (constant time), then the expiry at `now` (ms).
 * `fields` must come in the order they were signed in.
 */
export function verifySignature(
  purpose: Purpose,
  claims: { fields: TokenFields; expiresAt: number | null },
  signature: string,
  secret: string,
  now: number,
): TokenCheck {
  if (!PART.test(signature) || signature.length !== SIGNATURE_LENGTH) {
    return { ok: false, reason: 'malformed' }
  }
  const payload = payloadOf(claims.fields, claims.expiresAt ?? undefined)
  if (!sameSignature(signature, signatureOf(purpose, payload, secret))) {
    return { ok: false, reason: 'bad-signature' }
  }
  return checkExpiry({ ...claims, nonce: null }, now)
}

/**
 * Checks a token of `purpose` at `now` (ms): its form, its signature (constant time, before its
 * payload is read), then its expiry. A token in an older format of the purpose is checked by
 * that format's rules (olderFormats.ts).
 */
export function verifyToken(
  purpose: Purpose,
  token: string | null,
  secret: string,
  now: number,
): TokenCheck {
  const text = token?.trim()
  if (!text) return { ok: false, reason: 'missing' }
  const older = olderFormatOf(purpose)
  if (older && !text.startsWith(`${VERSION}.`)) return older(text, secret, now)
  const [version, payload, signature, ...rest] = text.split('.')
  if (version !== VERSION || !payload || !signature || rest.length > 0) {
    return { ok: false, reason: 'malformed' }
  }
  if (!PART.test(payload) || !PART.test(signature) || signature.length !== SIGNATURE_LENGTH) {
    return { ok: false, reason: 'malformed' }
  }
  if (!sameSignature(signature, signatureOf(purpose, payload, secret))) {
    return { ok: false, reason: 'bad-signature' }
  }
  const claims = readClaims(payload)
  if (!claims) return { ok: false, reason: 'malformed' }
  return checkExpiry(claims, now)
}

function readClaims(payload: string): TokenClaims | null {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const { e, r, ...rest } = value as Record<string, unknown>
  if (e !== undefined && (typeof e !== 'number' || !Number.isSafeInteger(e))) return null
  if (r !== undefined && typeof r !== 'string') return null
  const fields: TokenFields = {}
  for (const [name, field] of Object.entries(rest)) {
    if (typeof field !== 'string') return null
    fields[name] = field
  }
  return { fields, expiresAt: e ?? null, nonce: r ?? null }
}

/**
 * A keyed digest of `text` for `purpose` (base64url, `length` characters): names a thing in a
 * link without showing it (a click link's recipient), and no one without the secret can make
 * one.
 */
export function keyedDigest(
  purpose: Purpose,
  secret: string,
  text: string,
  length: number,
): string {
  return createHmac('sha256', purposeKey(purpose, secret))
    .update(text)
    .digest('base64url')
    .slice(0, length)
}
