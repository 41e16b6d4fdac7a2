import { createHmac } from 'node:crypto'
import { sameSignature } from './purposes.js'

/**
 * The signature of the webhooks a shop's own systems send us (the stock webhook of an inventory
 * system or POS, the order webhook of a checkout), Stripe's scheme: a header
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the webhook's own
 * secret. Several `v1` may be sent (while a secret is being rotated the sender signs with both);
 * one match is enough. Compared in constant time; a timestamp further than the tolerance from now
 * (either way) is refused, so a captured request cannot be replayed later (within the tolerance,
 * the event id refuses it: stock/stockEvent.ts, orders/receiveOrder.ts).
 */

/** The header each webhook carries its signature in. */
export const WEBHOOK_SIGNATURE_HEADERS = {
  stock: 'X-Stock-Signature',
  order: 'X-Order-Signature',
} as const

/** How far a signature's timestamp may be from now, in seconds (Stripe's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** The signature `v1` of `body` signed at `timestamp` (unix seconds) with `secret`. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
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
export function isValidWebhookSignature(check: SignatureCheck): boolean {
  if (!check.header) return false
  const parsed = parseHeader(check.header)
  if (!parsed) return false
  const tolerance = check.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS
  if (Math.abs(check.now / 1000 - parsed.timestamp) > tolerance) return false
  const expected = webhookSignature(check.secret, parsed.timestamp, check.rawBody)
  let matched = false
  for (const signature of parsed.signatures) {
    // why: every candidate is compared, so the time taken does not tell which one matched
    if (sameSignature(signature, expected)) matched = true
  }
  return matched
}
