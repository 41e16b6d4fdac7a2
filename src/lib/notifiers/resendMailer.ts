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

/** E-mail through Resend, or into the log when no provider is configured. Never throws. */
export interface Mailer {
  readonly destination: string
  /** Whether a provider is configured (false: e-mails are only logged). */
  readonly configured: boolean
  /** Sends one e-mail from the configured sender (D10). */
  send(email: OutgoingEmail, options?: SendOptions): Promise<DeliveryResult>
}

interface ResendError {
  name?: string
  message?: string
  statusCode?: number | null
}

export function createResendMailer(options: ResendMailerOptions): Mailer {
  const { apiKey, from, timeoutMs, log } = options
  const destination = options.destination ?? 'email'
  requirePositiveTimeout(timeoutMs, 'createResendMailer')
  // why: the SDK costs ~15 ms of every cold start, so it is loaded by the first send only, and
  // constructed once; it reads RESEND_BASE_URL (tests) at construction
  let client: Promise<Resend> | null = null
  const resend =
    apiKey && from
      ? () => (client ??= import('resend').then(({ Resend }) => new Resend(apiKey)))
      : null
  const missing = !apiKey ? 'RESEND_API_KEY' : 'RESEND_FROM_EMAIL'

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
    configured: resend !== null,

    async send(email, sendOptions = {}) {
      if (!resend) return logged(email)
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
  }
}
