import type { Logger } from '../log.js'
import { describeFetchFailure, type DeliveryResult } from './delivery.js'

/** One JSON POST to a webhook. */
export interface OutboundPost {
  /** Name used in logs and results; the URL itself is a secret and is never logged. */
  destination: string
  url: string
  body: unknown
  /** Abort the call (connect, answer and body) after this many milliseconds. */
  timeoutMs: number
  log: Logger
}

/**
 * POSTs JSON with a timeout. A network error, timeout or non-2xx answer is logged as
 * `notify.failed` and returned as a `failed` result: this function never throws.
 */
export async function postJson({
  destination,
  url,
  body,
  timeoutMs,
  log,
}: OutboundPost): Promise<DeliveryResult> {
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    })
    // why: reading the answer releases the connection; its content does not matter
    await response.arrayBuffer()
    if (!response.ok) {
      log.warn('notify.failed', { destination, status: response.status })
      return {
        destination,
        outcome: 'failed',
        status: response.status,
        error: `HTTP ${response.status}`,
      }
    }
    log.info('notify.sent', { destination, status: response.status })
    return { destination, outcome: 'sent', status: response.status }
  } catch (error) {
    const reason = describeFetchFailure(error, signal)
    log.warn('notify.failed', { destination, error: reason, timeoutMs })
    return { destination, outcome: 'failed', error: reason }
  }
}

/** Where a webhook notifier posts, or why it is disabled. */
export type WebhookTarget = { url: string } | { disabled: string }

/**
 * Checks a webhook URL once, when its notifier is created. Unset: disabled (§6 rule 4). A
 * malformed value is logged as a configuration error and disables the notifier instead of
 * failing the customer's request.
 */
export function webhookTarget(
  value: string | null,
  variable: string,
  destination: string,
  log: Logger,
): WebhookTarget {
  if (value === null) return { disabled: `${variable} is not set` }
  if (URL.canParse(value)) {
    const url = new URL(value)
    if (url.protocol === 'https:' || url.protocol === 'http:') return { url: url.href }
  }
  const reason = `${variable} is not an http(s) URL`
  // why: the value is a secret; name the variable, never echo it
  log.error('notify.misconfigured', undefined, { destination, reason })
  return { disabled: reason }
}

/** The `skipped` result, with the info log §6 rule 4 asks for. */
export function skipped(destination: string, reason: string, log: Logger): DeliveryResult {
  log.info('notify.skipped', { destination, reason })
  return { destination, outcome: 'skipped' }
}

/** Throws when a timeout option is not a positive number (a programming error, not configuration). */
export function requirePositiveTimeout(timeoutMs: number, owner: string): void {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`${owner}: timeoutMs must be a positive number of milliseconds`)
  }
}
