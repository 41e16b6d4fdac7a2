import { createHmac } from 'node:crypto'
import { isUsableRecordId } from '../storage/recordIds.js'
import { checkExpiry, PURPOSES, sameSignature, type Purpose, type TokenCheck } from './purposes.js'

/**
 * The older formats of the links e-mails carry, checked (never made) so that a link already in
 * a shopper's mailbox keeps working for as long as it was promised to. Each signs a text that
 * starts with its purpose with the secret itself (not a purpose key), and answers what a
 * signed token of its purpose would: the fields `id` and `productSlug` of the record it names
 * (the manage link's `jti` as its nonce), or `n`, `r`, `u` of a click link.
 *
 * | purpose        | token                                                  | signed text                         | ends                |
 * | -------------- | ------------------------------------------------------ | ----------------------------------- | ------------------- |
 * | manage link    | `base64url(JSON {id, productSlug, exp, jti}).<sig>`    | `purpose\n<payload as sent>`        | `exp` (180 days)    |
 * | confirm link   | `base64url(JSON {id, productSlug, exp}).<sig>`         | `purpose\n<id>\n<slug>\n<exp>`      | `exp` (7 days)      |
 * | unsubscribe    | `base64url(JSON {id, productSlug}).<sig>` (canonical)  | `purpose\n<id>\n<slug>`             | never               |
 * | click link     | `?n=<notice>&r=<recipient>&u=<slug>&e=<unix s>&sig=…`  | `purpose\n<n>\n<r>\n<u>\n<e>`       | `e` (90 days)       |
 */

const SIGNATURE_LENGTH = 43 // base64url of 32 bytes, no padding
const PART = /^[A-Za-z0-9_-]+$/

type OlderFormat = (token: string, secret: string, now: number) => TokenCheck

const sign = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text).digest('base64url')

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function manageLink(token: string, secret: string, now: number): TokenCheck {
  const parts = token.trim().split('.')
  if (parts.length !== 2 || !PART.test(parts[0]) || !PART.test(parts[1])) {
    return { ok: false, reason: 'malformed' }
  }
  if (parts[1].length !== SIGNATURE_LENGTH) return { ok: false, reason: 'malformed' }
  if (!sameSignature(parts[1], sign(secret, `${PURPOSES.manageLink}\n${parts[0]}`))) {
    return { ok: false, reason: 'bad-signature' }
  }
  const { id, productSlug, exp, jti } = decodeJson(parts[0]) ?? {}
  if (!isUsableRecordId(id) || !isUsableRecordId(productSlug)) {
    return { ok: false, reason: 'malformed' }
  }
  if (typeof exp !== 'number' || typeof jti !== 'string' || !isUsableRecordId(jti)) {
    return { ok: false, reason: 'malformed' }
  }
  return checkExpiry({ fields: { id, productSlug }, expiresAt: exp, nonce: jti }, now)
}

function confirmLink(token: string, secret: string, now: number): TokenCheck {
  const parts = token.trim().split('.')
  if (parts.length !== 2) return { ok: false, reason: 'malformed' }
  const { id, productSlug, exp } = (PART.test(parts[0]) && decodeJson(parts[0])) || {}
  if (
    !isUsableRecordId(id) ||
    !isUsableRecordId(productSlug) ||
    typeof exp !== 'number' ||
    !Number.isSafeInteger(exp) ||
    !PART.test(parts[1]) ||
    parts[1].length !== SIGNATURE_LENGTH
  ) {
    return { ok: false, reason: 'malformed' }
  }
  const signed = `${PURPOSES.confirmLink}\n${id}\n${productSlug}\n${exp}`
  if (!sameSignature(parts[1], sign(secret, signed))) return { ok: false, reason: 'bad-signature' }
  return checkExpiry({ fields: { id, productSlug }, expiresAt: exp, nonce: null }, now)
}

function unsubscribeLink(token: string, secret: string): TokenCheck {
  const parts = token.trim().split('.')
  if (parts.length !== 2) return { ok: false, reason: 'malformed' }
  const { id, productSlug } = (PART.test(parts[0]) && decodeJson(parts[0])) || {}
  if (
    !isUsableRecordId(id) ||
    !isUsableRecordId(productSlug) ||
    // why: the signature names the subscription, not the payload: only the one encoding the
    // service wrote is a link, so extra, reordered or re-escaped fields make no second one
    Buffer.from(JSON.stringify({ id, productSlug })).toString('base64url') !== parts[0] ||
    !PART.test(parts[1]) ||
    parts[1].length !== SIGNATURE_LENGTH
  ) {
    return { ok: false, reason: 'malformed' }
  }
  const signed = `${PURPOSES.unsubscribeLink}\n${id}\n${productSlug}`
  if (!sameSignature(parts[1], sign(secret, signed))) return { ok: false, reason: 'bad-signature' }
  return { ok: true, fields: { id, productSlug }, expiresAt: null, nonce: null }
}

const OLDER_FORMATS: Partial<Record<Purpose, OlderFormat>> = {
  [PURPOSES.manageLink]: manageLink,
  [PURPOSES.confirmLink]: confirmLink,
  [PURPOSES.unsubscribeLink]: unsubscribeLink,
}

/** How a token of `purpose` in its older format is checked; null when it has none. */
export function olderFormatOf(purpose: Purpose): OlderFormat | null {
  return OLDER_FORMATS[purpose] ?? null
}

/**
 * Checks a click link whose `sig` is of the older form (HMAC with the secret itself over the
 * purpose and the query's `n`, `r`, `u`, `e`) at `now` (ms).
 */
export function verifyOlderClickLink(
  params: URLSearchParams,
  secret: string,
  now: number,
): TokenCheck {
  const [n, r, u, e, sig] = ['n', 'r', 'u', 'e', 'sig'].map((name) => params.get(name) ?? '')
  if (
    !isUsableRecordId(n) ||
    !/^[A-Za-z0-9_-]{22}$/.test(r) ||
    !isUsableRecordId(u) ||
    !/^\d{1,12}$/.test(e) ||
    !new RegExp(`^[A-Za-z0-9_-]{${SIGNATURE_LENGTH}}$`).test(sig)
  ) {
    return { ok: false, reason: 'malformed' }
  }
  if (!sameSignature(sig, sign(secret, `${PURPOSES.clickLink}\n${n}\n${r}\n${u}\n${e}`))) {
    return { ok: false, reason: 'bad-signature' }
  }
  return checkExpiry({ fields: { n, r, u }, expiresAt: Number(e) * 1000, nonce: null }, now)
}
