import { createHash } from 'node:crypto'
import { mayReceiveRestockEmail, suppressedHashes } from '../compliance/restockRecipients.js'
import { requireSenderIdentity, SenderIdentityMissingError } from '../compliance/senderIdentity.js'
import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { AppConfig } from '../config.js'
import { InvalidInputError, NotConfiguredError, TryAgainLaterError } from '../errors.js'
import type { Logger } from '../log.js'
import type { DeliveryJob } from '../storage/deliveryJobStore.js'
import type { NotificationHistory, NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { DeliveryStartError } from './deliveryStarter.js'
import { isRunning, noticeStateOf, storedState } from './noticeState.js'

/** A checked §4.8 request. */
export interface SendRequest {
  productSlug: string
  emailTitle: string
  emailBody: string
}

/** The §4.8 answer's fields. With e-mail delivery, `sentCount` is the number of recipients queued. */
export interface SendSummary {
  notificationId: string
  sentCount: number
  recipientEmails: string[]
  timestamp: string
}

/**
 * `notif_<uuid>` derived from the notice (product, title, body) and how many identical notices
 * were delivered before, so that two identical sends, even simultaneous ones that cannot see
 * each other, agree on one notification: same job, same batches, same idempotency keys (D9).
 */
function restockNotificationId(request: SendRequest, earlierIdenticalSends: number): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([request.productSlug, request.emailTitle, request.emailBody]))
    .update(`\n${earlierIdenticalSends}`)
    .digest('hex')
  const hex = `${digest.slice(0, 12)}4${digest.slice(13, 16)}8${digest.slice(17, 32)}`
  return `notif_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A notification still being delivered, or one whose delivery never started (safe to redo). */
function isOpen(history: NotificationHistory): boolean {
  const state = noticeStateOf(history)
  return isRunning(state) || (state === 'failed' && history.sentCount === 0)
}

/**
 * The id of this send. An identical notice still being delivered is the same send repeated (a
 * double click, a retried request): its id is answered and nobody is e-mailed twice. Identical
 * notices delivered before count up, so sending the same text again later is a new notification.
 */
async function notificationIdFor(
  request: SendRequest,
  history: SendOptions['repositories']['history'],
): Promise<{ id: string; open: NotificationHistory | null }> {
  for (let earlier = 0; ; earlier++) {
    const id = restockNotificationId(request, earlier)
    const existing = await history.get({ id })
    if (!existing) return { id, open: null }
    if (isOpen(existing)) return { id, open: existing }
  }
}

/** D6 limits, in characters. */
export const SEND_LIMITS = { productSlug: 100, emailTitle: 200, emailBody: 20000 } as const

const FIELDS = ['productSlug', 'emailTitle', 'emailBody'] as const

export const EMAIL_TITLE_NOT_ONE_LINE =
  'emailTitle must be a single line (no line breaks or control characters)'

/**
 * §4.8 checks in the documented order: every "is required" first, then the D6 lengths, then a
 * title that is not one line (CR, LF, U+2028/U+2029 or another control character inside).
 */
export function parseSendRequest(body: Record<string, unknown>): SendRequest {
  for (const field of FIELDS) {
    const value = body[field]
    if (typeof value !== 'string' || value.trim() === '') {
      throw new InvalidInputError(`${field} is required`)
    }
  }
  for (const field of FIELDS) {
    if ([...(body[field] as string)].length > SEND_LIMITS[field]) {
      throw new InvalidInputError(`${field} must be at most ${SEND_LIMITS[field]} characters`)
    }
  }
  // why: the title is the e-mail subject, one header line; CR/LF there is refused, not folded
  if (/[\p{Cc}\u2028\u2029]/u.test((body.emailTitle as string).trim())) {
    throw new InvalidInputError(EMAIL_TITLE_NOT_ONE_LINE)
  }
  return {
    productSlug: (body.productSlug as string).trim(),
    emailTitle: (body.emailTitle as string).trim(),
    emailBody: body.emailBody as string,
  }
}

export interface SendOptions {
  repositories: Pick<Repositories, 'subscriptions' | 'history' | 'deliveries' | 'suppressions'>
  config: Pick<
    AppConfig,
    'emailDelivery' | 'shopName' | 'shopAddress' | 'shopContact' | 'deployContext'
  >
  log: Logger
  /** Starts the background delivery; rejects with DeliveryStartError when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** Where the send is recorded (who sent which notice to how many). Default: nowhere. */
  audit?: AuditRecorder
}

/**
 * Pending, non-archived subscribers of one product that may be e-mailed (not opted out without a
 * newer consent, confirmed, not suppressed: docs/compliance.md), oldest signup first.
 */
async function pendingSubscribers(
  options: Pick<SendOptions, 'repositories'>,
  productSlug: string,
): Promise<NotifySubscription[]> {
  const [{ records }, suppressed] = await Promise.all([
    options.repositories.subscriptions.listProduct(productSlug),
    suppressedHashes(options.repositories.suppressions),
  ])
  return records
    .filter((subscription) => mayReceiveRestockEmail(subscription, suppressed))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
}

/**
 * POST /api/admin/notify/send (§4.8, D9). Without an e-mail provider: records the history and
 * marks every pending subscriber `notified`. With Resend: snapshots the recipients, records the
 * history as `queued` and starts the background delivery, which sets each recipient `notified`
 * once the provider accepted their e-mail and writes the final history.
 */
export async function sendRestockNotification(
  request: SendRequest,
  options: SendOptions,
): Promise<SendSummary> {
  const { repositories, log } = options
  const now = options.now ?? Date.now
  const delivery = options.config.emailDelivery
  // why: without a provider a send only records (§4.8); with one, every e-mail needs its link
  const emailConfigured = delivery.ready
  if (!delivery.ready && delivery.missing !== 'provider') {
    log.error('restock.send.misconfigured', new NotConfiguredError(delivery.fix))
    throw new NotConfiguredError(delivery.message)
  }
  let sender
  try {
    sender = requireSenderIdentity(options.config)
  } catch (error) {
    if (error instanceof SenderIdentityMissingError) {
      log.error('restock.send.misconfigured', error, { fix: error.fix })
    }
    throw error
  }
  const subscribers = await pendingSubscribers(options, request.productSlug)
  if (subscribers.length === 0) {
    throw new InvalidInputError('No pending subscribers found for this product')
  }

  const { id: notificationId, open } = await notificationIdFor(request, repositories.history)
  const repeated = (existing: NotificationHistory): SendSummary => {
    log.info('restock.send.repeated', { notificationId, productSlug: request.productSlug })
    return {
      notificationId,
      sentCount: existing.sentCount,
      recipientEmails: existing.recipientEmails,
      timestamp: existing.timestamp,
    }
  }
  if (open && isRunning(noticeStateOf(open))) return repeated(open)

  const recipientEmails = subscribers.map((subscription) => subscription.email)
  const timestamp = new Date(now()).toISOString()
  const history: NotificationHistory = {
    id: notificationId,
    productSlug: request.productSlug,
    emailTitle: request.emailTitle,
    emailBody: request.emailBody,
    recipientEmails,
    sentCount: subscribers.length,
    timestamp,
    ...storedState(emailConfigured ? 'queued' : 'recorded'),
    failedRecipients: [],
    ...(emailConfigured ? {} : { completedAt: timestamp }),
  }
  const summary: SendSummary = {
    notificationId,
    sentCount: subscribers.length,
    recipientEmails,
    timestamp,
  }

  if (emailConfigured) {
    // why: a job already stored under this id is the same notice (the id derives from it)
    await repositories.deliveries.saveJob({
      notificationId,
      productSlug: request.productSlug,
      emailTitle: request.emailTitle,
      emailBody: request.emailBody,
      recipients: subscribers.map(({ id, email }) => ({ subscriptionId: id, email })),
      createdAt: timestamp,
      sender,
    } satisfies DeliveryJob)
  }
  const winner = await storeHistory(repositories.history, history, open)
  if (winner !== history) return repeated(winner)
  await options.audit?.record([
    {
      action: 'send',
      record: { type: 'notification', id: notificationId, productSlug: request.productSlug },
      from: null,
      to: String(subscribers.length),
    },
  ])

  if (!emailConfigured) {
    await mapWithConcurrency(subscribers, 20, (subscription) =>
      repositories.subscriptions.update(subscription, (current) =>
        // why: someone who unsubscribed (or was handled by an admin) meanwhile keeps that status
        current.status === 'pending'
          ? { ...current, status: 'notified', notifiedAt: timestamp }
          : current,
      ),
    )
    log.info('restock.send.recorded', {
      notificationId,
      productSlug: request.productSlug,
      recipients: subscribers.length,
      reason: `${delivery.ready ? '' : delivery.fix}: no e-mail was sent`,
    })
    return summary
  }

  try {
    await options.startDelivery(notificationId)
  } catch (error) {
    if (!(error instanceof DeliveryStartError)) throw error
    log.error('restock.send.start_failed', error, { notificationId })
    const reason = 'Delivery could not be started'
    await repositories.history.update({ id: notificationId }, (current) =>
      noticeStateOf(current) === 'queued'
        ? {
            ...current,
            ...storedState('failed'),
            sentCount: 0,
            failedRecipients: recipientEmails.map((email) => ({ email, error: reason })),
            completedAt: new Date(now()).toISOString(),
          }
        : current,
    )
    throw new TryAgainLaterError('Email delivery could not be started; no e-mail was sent')
  }
  log.info('restock.send.queued', { notificationId, recipients: subscribers.length })
  return summary
}

/**
 * Stores the history of this send: a new record (`onlyIfNew`), or, for a notice whose delivery
 * never started (`retried`), the failed record replaced if it is still that. Answers `record`
 * when this send stored it, else the history a concurrent identical send stored (the same notice).
 */
async function storeHistory(
  history: SendOptions['repositories']['history'],
  record: NotificationHistory,
  retried: NotificationHistory | null,
): Promise<NotificationHistory> {
  const ref = { id: record.id }
  if (!retried) {
    if (await history.create(ref, record)) return record
  } else {
    let replaced = false
    const stored = await history.update(ref, (current) => {
      replaced = isOpen(current) && !isRunning(noticeStateOf(current))
      return replaced ? record : current
    })
    if (replaced) return record
    if (stored) return stored
  }
  const stored = await history.get(ref)
  if (!stored) throw new Error(`History ${record.id} vanished while it was being stored`)
  return stored
}
