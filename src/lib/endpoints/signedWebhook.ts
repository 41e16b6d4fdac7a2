import type { AppConfig } from '../config.js'
import { NotConfiguredError, UnauthorizedError } from '../errors.js'
import type { VerifyBodyInput } from '../http/endpoint.js'
import { isValidWebhookSignature, WEBHOOK_SIGNATURE_HEADERS } from '../signing/webhookSignature.js'

/**
 * The `verifyBody` of the webhooks a shop's own systems sign (signing/webhookSignature.ts): the
 * stock webhook and the order webhook. It runs on the raw body before anything is parsed, so a
 * badly signed body is a 401 whatever it contains; without the webhook's secret it is a 503 (a
 * 401 would blame the sender for our missing setting).
 */

export interface SignedWebhook {
  /** Which webhook: names its header, its log lines and its 503 text. */
  kind: keyof typeof WEBHOOK_SIGNATURE_HEADERS
  /** Its secret in the configuration (null while unset). */
  secretOf: (config: AppConfig) => string | null
  /** The variable that holds the secret, for the log line that says what to set. */
  variable: string
  /** The clock the timestamp is checked against, ms since the epoch. */
  now: () => number
}

/** The 503 text of a webhook whose secret is unset: `Stock webhook is not configured`. */
export function notConfiguredText(kind: SignedWebhook['kind']): string {
  return `${kind[0].toUpperCase()}${kind.slice(1)} webhook is not configured`
}

export function signedWebhookCheck(webhook: SignedWebhook) {
  return ({ req, rawBody, config, log }: VerifyBodyInput): void => {
    const secret = webhook.secretOf(config)
    if (!secret) {
      log.error(
        `${webhook.kind}.webhook.misconfigured`,
        new Error(`${webhook.variable} is not set`),
      )
      throw new NotConfiguredError(notConfiguredText(webhook.kind))
    }
    const valid = isValidWebhookSignature({
      header: req.headers.get(WEBHOOK_SIGNATURE_HEADERS[webhook.kind]),
      rawBody,
      secret,
      now: webhook.now(),
    })
    if (!valid) {
      log.warn(`${webhook.kind}.webhook.refused`, { reason: 'bad, missing or stale signature' })
      throw new UnauthorizedError('Invalid signature')
    }
  }
}
