import type { Resend } from 'resend'
import type { Logger } from '../log.js'
import { describeFetchFailure, type DeliveryResult } from './delivery.js'
import { requirePositiveTimeout } from './outboundRequest.js'

/** One rendered e-mail. */
export interface OutgoingEmail {
  to: string
  subject: string
  text: string
  html?: string
  /** Extra headers, e.g. `List-Unsubscribe` (D9). */
  headers?: Record<string, string>
}

/** What a message module renders: the e-mail without its recipient. */
export type EmailContent = Pick<OutgoingEmail, 'subject' | 'text' | 'html'>

export interface SendOptions {
  /** Resend `Idempotency-Key`: a retried call with the same key never sends twice. Default: none. */
  idempotencyKey?: string
}

export interface ResendMailerOptions {
  /** `RESEND_API_KEY` (a secret). Null: no provider, e-mails are written to the log (D10). */
  apiKey: string | null
  /** `RESEND_FROM_EMAIL`. Null: no provider, e-mails are written to the log (D10). */
  from: string | null
  /** Timeout of each API call in milliseconds (config.outboundTimeoutMs). */
  timeoutMs: number
  log: Logger
  /** Name in logs and results. Default: `email`. */
  destination?: string
}

/** What one batch call achieved. */
export interface BatchResult {
  /** Per e-mail, in the order given: null when the provider accepted it, else why it failed. */
  errors: (string | null)[]
  /** The whole call failed in a way another try may fix (rate limit, 5xx, network, timeout). */
  retryable: boolean
}

/** E-mail through Resend, or into the log when no provider is configured. Never throws. */
export interface Mailer {
  readonly destination: string
  /** Whether a provider is configured (false: e-mails are only logged). */
  readonly configured: boolean
  /** Sends one e-mail from the configured sender (D10). */
  send(email: OutgoingEmail, options?: SendOptions): Promise<DeliveryResult>
  /**
   * Sends up to 100 e-mails in one call of Resend's batch endpoint: `permissive` validation, so
   * one bad address fails alone (its index comes back in `errors`), and one idempotency key per
   * call, so a repeated call sends nothing twice. Without a provider every e-mail fails.
   */
  sendBatch(emails: OutgoingEmail[], idempotencyKey: string): Promise<BatchResult>
}

interface ResendError {
  name?: string
  message?: string
  statusCode?: number | null
}

function describe(error: ResendError): string {
  const status = error.statusCode ? ` (HTTP ${error.statusCode})` : ''
  return `${error.message || error.name || 'Unknown error'}${status}`
}

export function createResendMailer(options: ResendMailerOptions): Mailer {
  const { apiKey, from, timeoutMs, log } = options
  const destination = options.destination ?? 'email'
  requirePositiveTimeout(timeoutMs, 'createResendMailer')
  const configured = Boolean(apiKey && from)
  const missing = !apiKey ? 'RESEND_API_KEY' : 'RESEND_FROM_EMAIL'
  let client: Promise<Resend> | null = null
  // why: loading the SDK is a noticeable part of a cold start; only a request that really sends
  // pays for it. It reads RESEND_BASE_URL (tests) when constructed
  const resend = () =>
    (client ??= import('resend').then(({ Resend }) => new Resend(apiKey as string)))

  function logged(email: OutgoingEmail): DeliveryResult {
    log.info('email.logged', {
      destination,
      reason: `${missing} is not set: e-mail not sent, shown here instead`,
      to: email.to,
      subject: email.subject,
      text: email.text,
    })
    return { destination, outcome: 'logged' }
  }

  function failed(
    error: ResendError | null,
    signal: AbortSignal,
    caught?: unknown,
  ): DeliveryResult {
    const reason = signal.aborted
      ? 'timeout'
      : caught !== undefined
        ? describeFetchFailure(caught, signal)
        : (error?.name ?? 'unknown')
    const status = typeof error?.statusCode === 'number' ? error.statusCode : undefined
    log.warn('notify.failed', {
      destination,
      error: reason,
      status,
      message: signal.aborted ? undefined : error?.message,
    })
    return { destination, outcome: 'failed', error: reason, ...(status ? { status } : {}) }
  }

  function payload(email: OutgoingEmail) {
    return {
      from: from as string,
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(email.html ? { html: email.html } : {}),
      ...(email.headers ? { headers: email.headers } : {}),
    }
  }

  return {
    destination,
    configured,

    async send(email, sendOptions = {}) {
      if (!configured) return logged(email)
      const signal = AbortSignal.timeout(timeoutMs)
      try {
        const { data, error } = await (
          await resend()
        ).emails.send(payload(email), {
          signal,
          ...sendOptions,
        })
        if (error || !data) return failed(error, signal)
        log.info('notify.sent', { destination, id: data.id })
        return { destination, outcome: 'sent', id: data.id }
      } catch (caught) {
        return failed(null, signal, caught)
      }
    },

    async sendBatch(emails, idempotencyKey) {
      if (!configured) {
        return { errors: emails.map(() => `${missing} is not set`), retryable: false }
      }
      const { data, error } = await (
        await resend()
      ).batch.send(emails.map(payload), {
        batchValidation: 'permissive',
        idempotencyKey,
        signal: AbortSignal.timeout(timeoutMs),
      })
      if (error || !data) {
        const reason = error ? describe(error) : 'Empty answer from the e-mail provider'
        const status = error?.statusCode ?? null
        // why: 409 is Resend's answer while an identical request with the same idempotency key
        // is still in flight (two workers on one notification); after the pause it is answered
        const retryable = status === null || status === 409 || status === 429 || status >= 500
        return { errors: emails.map(() => reason), retryable }
      }
      const errors: (string | null)[] = emails.map(() => null)
      for (const failure of data.errors ?? []) {
        if (failure.index >= 0 && failure.index < errors.length) {
          errors[failure.index] = failure.message || 'Rejected by the e-mail provider'
        }
      }
      return { errors, retryable: false }
    },
  }
}
