import type { Resend } from 'resend'

/** One restock e-mail, ready to hand to the provider. */
export interface OutgoingEmail {
  to: string
  subject: string
  text: string
  html: string
  headers: Record<string, string>
}

/** What one batch call achieved. */
export interface BatchResult {
  /** Per e-mail, in the order given: null when the provider accepted it, else why it failed. */
  errors: (string | null)[]
  /** The whole call failed in a way another try may fix (rate limit, 5xx, network, timeout). */
  retryable: boolean
}

/** Sends up to one batch (≤ 100) of e-mails in one call; never throws. */
export interface RestockMailer {
  sendBatch(emails: OutgoingEmail[], idempotencyKey: string): Promise<BatchResult>
}

export interface ResendMailerOptions {
  apiKey: string
  /** `RESEND_FROM_EMAIL`. */
  from: string
  /** Abort a call after this long (config `outboundTimeoutMs`). */
  timeoutMs: number
}

function describe(error: { message?: string; name?: string; statusCode?: number | null }): string {
  const status = error.statusCode ? ` (HTTP ${error.statusCode})` : ''
  return `${error.message || error.name || 'Unknown error'}${status}`
}

/**
 * Resend's batch endpoint (`POST /emails/batch`), one call per batch of the §8 schedule:
 * `permissive` validation so that one bad address fails alone (its index comes back in
 * `errors`), and one idempotency key per call so that a repeated call sends nothing twice.
 * The SDK reads RESEND_BASE_URL, which tests point at a local server.
 */
export function resendMailer(options: ResendMailerOptions): RestockMailer {
  // why: loaded by the first batch only; the SDK costs ~15 ms of a cold start
  let client: Promise<Resend> | null = null
  const resend = () =>
    (client ??= import('resend').then(({ Resend }) => new Resend(options.apiKey)))
  return {
    async sendBatch(emails, idempotencyKey) {
      const { data, error } = await (
        await resend()
      ).batch.send(
        emails.map((email) => ({ from: options.from, ...email })),
        {
          batchValidation: 'permissive',
          idempotencyKey,
          signal: AbortSignal.timeout(options.timeoutMs),
        },
      )
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
