import { createHmac } from 'node:crypto'
import { sameSignature } from '../signing/purposes.js'

/**
 * The stock webhook's signature, Stripe's scheme: header
 * `X-Stock-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with
 * `STOCK_WEBHOOK_SECRET`. Several `v1` may be sent (while a secret is being rotated the sender
 * signs with both); one match is enough. Compared in constant time; a timestamp further than the
 * tolerance from now (either way) is refused, so a captured request cannot be replayed later.
 */

/** Header carrying the signature. */
export const STOCK_SIGNATURE_HEADER = 'X-Stock-Signature'

/** How far a signature's timestamp may be from now, in seconds (Stripe's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** The signature `v1` of `body` signed at `timestamp` (unix seconds) with `secret`. */
export function stockSignature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')
}

interface ParsedHeader {
  timestamp: number
  signatures: string[]
}

function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const separator = part.indexOf('=')
    if (separator < 0) continue
    const name = part.slice(0, separator).trim()
    const value = part.slice(separator + 1).trim()
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase())
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures }
}

export interface SignatureCheck {
  /** The header's value, or null when it is missing. */
  header: string | null
  /** The body exactly as received. */
  rawBody: string
  secret: string
  /** Now, in milliseconds since the epoch. */
  now: number
  /** Default: SIGNATURE_TOLERANCE_SECONDS. */
  toleranceSeconds?: number
}

/** Whether the request is signed with `secret`, recently. */
export function isValidStockSignature(check: SignatureCheck): boolean {
  if (!check.header) return false
  const parsed = parseHeader(check.header)
  if (!parsed) return false
  const tolerance = check.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS
  if (Math.abs(check.now / 1000 - parsed.timestamp) > tolerance) return false
  const expected = stockSignature(check.secret, parsed.timestamp, check.rawBody)
  let matched = false
  for (const signature of parsed.signatures) {
    // why: every candidate is compared, so the time taken does not tell which one matched
    if (sameSignature(signature, expected)) matched = true
  }
  return matched
}
