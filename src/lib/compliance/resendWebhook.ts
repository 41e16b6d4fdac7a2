import type { Store } from '@netlify/blobs'
import { Webhook, WebhookVerificationError } from 'svix'
import type { Logger } from '../log.js'
import { forgetWebhookReceipt, recordWebhookReceipt } from '../storage/webhookReceipts.js'
import { suppressAddress, type SuppressDeps } from './suppressAddress.js'

/**
 * POST /api/resend-webhook (docs/compliance.md): Resend's delivery events, signed by Svix. The
 * signature is checked by Svix's own verifier (`svix-id`, `svix-timestamp`, `svix-signature`;
 * HMAC-SHA256 compared in constant time; a timestamp more than 5 minutes from now is refused), a
 * message id seen before is answered without being handled again (replay protection), and a hard
 * bounce or a complaint suppresses the address.
 */

/** RESEND_WEBHOOK_SECRET is unset: no event can be checked, so none is accepted. */
export class WebhookNotConfiguredError extends Error {
  override name = 'WebhookNotConfiguredError'
  constructor() {
    super(
      'RESEND_WEBHOOK_SECRET is not set, so Resend events cannot be verified. Copy the signing ' +
        'secret (whsec_…) of the webhook from the Resend dashboard into the site environment.',
    )
  }
}

/** The signature, its timestamp or its headers do not check out. */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError'
}

export interface WebhookDeps extends SuppressDeps {
  /** The records store (receipts). */
  store: Store
  secret: string | null
  log: Logger
  /** Clock for the stored times. Default: `() => new Date()`. */
  now?: () => Date
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
  if (!deps.secret) throw new WebhookNotConfiguredError()
  const now = deps.now ?? (() => new Date())
  const signed = {
    'svix-id': headers.get('svix-id') ?? '',
    'svix-timestamp': headers.get('svix-timestamp') ?? '',
    'svix-signature': headers.get('svix-signature') ?? '',
  }
  let event: ResendEvent
  try {
    event = new Webhook(deps.secret).verify(rawBody, signed) as ResendEvent
  } catch (error) {
    if (error instanceof WebhookVerificationError || error instanceof Error) {
      throw new WebhookSignatureError(error.message)
    }
    throw error
  }
  const messageId = signed['svix-id']
  if (!(await recordWebhookReceipt(deps.store, RECEIPT_SOURCE, messageId, now().toISOString()))) {
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
    const at = typeof event.created_at === 'string' ? event.created_at : now().toISOString()
    let unsubscribed = 0
    for (const email of recipients(event)) {
      unsubscribed += (await suppressAddress(deps, email, reason, at)).unsubscribed
    }
    // why: the address is personal data and stays out of the log (docs/compliance.md)
    deps.log.info('webhook.suppressed', { messageId, reason, unsubscribed })
    return { handled: 'suppressed', reason, unsubscribed }
  } catch (error) {
    // why: Resend retries a failed delivery; its retry must be handled, not taken for a replay
    await forgetWebhookReceipt(deps.store, RECEIPT_SOURCE, messageId)
    throw error
  }
}
