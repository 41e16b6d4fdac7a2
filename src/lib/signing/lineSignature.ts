import { createHmac } from 'node:crypto'
import { sameSignature } from './purposes.js'

/**
 * LINE's webhook signature: `X-Line-Signature` is the base64 HMAC-SHA256 of the raw body, keyed
 * with the Messaging API channel's secret (LINE Messaging API reference, "Verify the signature").
 * LINE sends no timestamp: a replayed event is harmless because what it does (opt out, mark
 * reachable) is the same however often it is done.
 */

/** The header LINE signs its webhook requests in. */
export const LINE_SIGNATURE_HEADER = 'X-Line-Signature'

/** The signature LINE sends with `rawBody` under `channelSecret`. */
export function lineSignature(channelSecret: string, rawBody: string): string {
  return createHmac('sha256', channelSecret).update(rawBody, 'utf8').digest('base64')
}

/** Whether `header` is the signature of `rawBody` (constant-time compare). */
export function isValidLineSignature(
  header: string | null,
  rawBody: string,
  channelSecret: string,
): boolean {
  if (!header) return false
  return sameSignature(header.trim(), lineSignature(channelSecret, rawBody))
}
