import { createHmac, randomUUID } from 'node:crypto'
import { olderFormatOf } from './olderFormats.js'
import {
  checkExpiry,
  PURPOSES,
  purposeKey,
  sameSignature,
  TOKEN_FIELDS,
  type Purpose,
  type TokenCheck,
  type TokenClaims,
  type TokenFields,
} from './purposes.js'

/**
 * The one signing module: every signed link and ticket the service makes is a signed token
 *
 *     <base64url(JSON {...fields, e?: expiry ms, r?: nonce})>.<base64url(HMAC-SHA256(key, "v1." + payload))>
 *
 * where `key` = HMAC-SHA256(secret, purpose): each purpose signs with its own key, so a token of
 * one purpose is worth nothing for another even under the same secret; `v1` names this format
 * inside the signed text. Only the encoding this module writes is a token; the signature covers
 * the payload exactly as sent and is compared in constant time before anything acts on it; `e`
 * ends the token; `r` (single-use tokens only) is the nonce its receiver spends to refuse a
 * replay. A link whose fields travel as a query of their own (the click link) carries only the
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
  if (Object.keys(fields).join('\n') !== TOKEN_FIELDS[purpose].join('\n')) {
    throw new Error(`A ${purpose} token carries ${TOKEN_FIELDS[purpose].join(', ')}, in this order`)
  }
  const payload = payloadOf(fields, expiresAt, once ? randomUUID() : undefined)
  return `${payload}.${signatureOf(purpose, payload, secret)}`
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
 * Tickets a run in flight may carry spelled with the version in front (`v1.<payload>.<sig>`):
 * the same signature over the same text, so the same ticket.
 */
const SPELLED_WITH_VERSION: ReadonlySet<Purpose> = new Set([
  PURPOSES.deliveryTicket,
  PURPOSES.exportTicket,
])

/**
 * Checks a token of `purpose` at `now` (ms): its form (the exact encoding `signToken` writes),
 * its signature (constant time), then its expiry. A token whose signature is not of this format
 * may be one of the purpose's older format (olderFormats.ts), which then decides by its rules.
 */
export function verifyToken(
  purpose: Purpose,
  token: string | null,
  secret: string,
  now: number,
): TokenCheck {
  const text = token?.trim()
  if (!text) return { ok: false, reason: 'missing' }
  const versioned = text.startsWith(`${VERSION}.`) && SPELLED_WITH_VERSION.has(purpose)
  const check = checkToken(purpose, versioned ? text.slice(VERSION.length + 1) : text, secret, now)
  const older = olderFormatOf(purpose)
  if (check.ok || check.reason === 'expired' || !older) return check
  const olderCheck = older(text, secret, now)
  if (olderCheck.ok || olderCheck.reason === 'expired') return olderCheck
  // why: a token of this format with a wrong signature is forged, whatever the older format
  // makes of its payload
  return check.reason === 'bad-signature' ? check : olderCheck
}

function checkToken(purpose: Purpose, text: string, secret: string, now: number): TokenCheck {
  const [payload, signature, ...rest] = text.split('.')
  if (!payload || !signature || rest.length > 0) return { ok: false, reason: 'malformed' }
  if (!PART.test(payload) || !PART.test(signature) || signature.length !== SIGNATURE_LENGTH) {
    return { ok: false, reason: 'malformed' }
  }
  // why: only the one encoding this module writes is a token, so one set of claims has one
  // token; the text is only decoded here, nothing acts on it before the signature matches
  const claims = readClaims(payload)
  if (!claims || !isWritten(purpose, claims, payload)) return { ok: false, reason: 'malformed' }
  if (!sameSignature(signature, signatureOf(purpose, payload, secret))) {
    return { ok: false, reason: 'bad-signature' }
  }
  return checkExpiry(claims, now)
}

/** Whether `payload` is exactly what `signToken` writes for these claims of `purpose`. */
function isWritten(purpose: Purpose, claims: TokenClaims, payload: string): boolean {
  const names = Object.keys(claims.fields)
  const expected = TOKEN_FIELDS[purpose]
  return (
    names.length === expected.length &&
    names.every((name, i) => name === expected[i]) &&
    payloadOf(claims.fields, claims.expiresAt ?? undefined, claims.nonce ?? undefined) === payload
  )
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
