import { Webhook, WebhookVerificationError } from 'svix'
import { NotConfiguredError, UnauthorizedError } from '../errors.js'
import type { Logger } from '../log.js'
import { forgetWebhookReceipt, recordWebhookReceipt } from '../storage/webhookReceipts.js'
import type { Repositories } from '../storage/repositories.js'
import type { AuditRecorder } from '../audit/auditTrail.js'
import { suppressAddress } from './suppressAddress.js'

/**
 * POST /api/resend-webhook (docs/compliance.md): Resend's delivery events, signed by Svix. The
 * signature is checked by Svix's own verifier (`svix-id`, `svix-timestamp`, `svix-signature`;
 * HMAC-SHA256 compared in constant time; a timestamp more than 5 minutes from now is refused), a
 * message id seen before is answered without being handled again (replay protection), and a hard
 * bounce or a complaint suppresses the address.
 */

/** The answer when RESEND_WEBHOOK_SECRET is unset (503). */
export const WEBHOOK_NOT_CONFIGURED = 'Webhook is not configured'
/** The answer to a missing, wrong or stale signature (401). */
export const INVALID_WEBHOOK_SIGNATURE = 'Invalid webhook signature'

export interface WebhookDeps {
  repositories: Pick<Repositories, 'subscriptions' | 'suppressions' | 'store'>
  /** Where the subscriptions a report ends are recorded (the audit trail). Default: nowhere. */
  audit?: AuditRecorder
  secret: string | null
  log: Logger
  /** The request's clock (the stored times), ms since the epoch. */
  now: () => number
}

export type WebhookOutcome =
  | { handled: 'suppressed'; reason: 'bounce' | 'complaint'; unsubscribed: number }
  | { handled: 'ignored'; eventType: string }
  | { handled: 'duplicate' }

interface ResendEvent {
  type?: unknown
  created_at?: unknown
  data?: { to?: unknown; bounce?: { type?: unknown } }
}

const RECEIPT_SOURCE = 'resend'

/** What an event asks for: a suppression (with its reason) or nothing. */
function suppressionReason(event: ResendEvent): 'bounce' | 'complaint' | null {
  if (event.type === 'email.complained') return 'complaint'
  if (event.type !== 'email.bounced') return null
  // why: Resend reports SES bounce types; only a permanent ("hard") one ends an address
  const kind = String(event.data?.bounce?.type ?? '').toLowerCase()
  return kind === 'permanent' || kind === 'hard' ? 'bounce' : null
}

function recipients(event: ResendEvent): string[] {
  const to = event.data?.to
  const list = Array.isArray(to) ? to : typeof to === 'string' ? [to] : []
  return list.filter((item): item is string => typeof item === 'string' && item.includes('@'))
}

export async function handleResendWebhook(
  rawBody: string,
  headers: Headers,
  deps: WebhookDeps,
): Promise<WebhookOutcome> {
  if (!deps.secret) {
    deps.log.error(
      'webhook.misconfigured',
      new Error(
        'RESEND_WEBHOOK_SECRET is not set, so Resend events cannot be verified. Copy the signing ' +
          'secret (whsec_…) of the webhook from the Resend dashboard into the site environment.',
      ),
    )
    throw new NotConfiguredError(WEBHOOK_NOT_CONFIGURED)
  }
  const { now } = deps
  const signed = {
    'svix-id': headers.get('svix-id') ?? '',
    'svix-timestamp': headers.get('svix-timestamp') ?? '',
    'svix-signature': headers.get('svix-signature') ?? '',
  }
  let event: ResendEvent
  try {
    event = new Webhook(deps.secret).verify(rawBody, signed) as ResendEvent
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    deps.log.warn('webhook.rejected', { reason: error.message })
    throw new UnauthorizedError(INVALID_WEBHOOK_SIGNATURE)
  }
  const messageId = signed['svix-id']
  if (
    !(await recordWebhookReceipt(
      deps.repositories.store,
      RECEIPT_SOURCE,
      messageId,
      new Date(now()).toISOString(),
    ))
  ) {
    deps.log.info('webhook.duplicate', { messageId })
    return { handled: 'duplicate' }
  }
  try {
    const reason = suppressionReason(event)
    const eventType = typeof event.type === 'string' ? event.type : 'unknown'
    if (!reason) {
      deps.log.info('webhook.ignored', { messageId, eventType })
      return { handled: 'ignored', eventType }
    }
    const at =
      typeof event.created_at === 'string' ? event.created_at : new Date(now()).toISOString()
    let unsubscribed = 0
    for (const email of recipients(event)) {
      const suppressed = await suppressAddress(deps.repositories, email, reason, at, deps.audit)
      unsubscribed += suppressed.unsubscribed
    }
    // why: the address is personal data and stays out of the log (docs/compliance.md)
    deps.log.info('webhook.suppressed', { messageId, reason, unsubscribed })
    return { handled: 'suppressed', reason, unsubscribed }
  } catch (error) {
    // why: Resend retries a failed delivery; its retry must be handled, not taken for a replay
    await forgetWebhookReceipt(deps.repositories.store, RECEIPT_SOURCE, messageId)
    throw error
  }
}
