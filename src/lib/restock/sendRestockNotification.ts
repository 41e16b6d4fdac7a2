import { createHash } from 'node:crypto'
import type { AuditRecorder } from '../audit/auditTrail.js'
import { isWaiting, suppressedHashes } from '../compliance/restockRecipients.js'
import {
  requireSenderIdentity,
  SenderIdentityMissingError,
  type SenderIdentity,
} from '../compliance/senderIdentity.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { AppConfig } from '../config.js'
import {
  AlreadyInProgressError,
  InvalidInputError,
  NotConfiguredError,
  TryAgainLaterError,
} from '../errors.js'
import type { Logger } from '../log.js'
import type { DeliveryJob } from '../storage/deliveryJobStore.js'
import type {
  DeliveryMode,
  NotificationHistory,
  NotificationTrigger,
  NotifySubscription,
} from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import type { WaveNotice, WaveSendOutcome } from '../stock/stockWaves.js'
import { DeliveryStartError } from './deliveryStarter.js'
import { isRunning, noticeStateOf, storedState } from './noticeState.js'
import { chooseRecipients } from './recipientChoice.js'

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
export function restockNotificationId(request: SendRequest, earlierIdenticalSends: number): string {
  return notificationIdOf(
    JSON.stringify([request.productSlug, request.emailTitle, request.emailBody]),
    `\n${earlierIdenticalSends}`,
  )
}

/** The notification id of wave `wave` of the `episode`-th rise of a product's stock. */
export function waveNotificationId(productSlug: string, episode: number, wave: number): string {
  return notificationIdOf(JSON.stringify(['stock-wave', productSlug, episode, wave]))
}

/** `notif_<uuid>` (version-4 shaped) from the SHA-256 of `parts`. */
function notificationIdOf(...parts: string[]): string {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  const digest = hash.digest('hex')
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

/** 409 while another send chooses the same product's recipients. */
export const SEND_IN_PROGRESS = 'A send for this product is already in progress'

export interface SendOptions {
  repositories: Pick<
    Repositories,
    'subscriptions' | 'history' | 'deliveries' | 'sendClaims' | 'suppressions'
  >
  config: Pick<
    AppConfig,
    'emailDelivery' | 'shopName' | 'shopAddress' | 'shopContact' | 'deployContext'
  >
  log: Logger
  /** Starts the background delivery; rejects with DeliveryStartError when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
  /** Clock. Default: `Date.now`. */
  now?: () => number
  /** Where the send is recorded (the audit trail). Default: nowhere. */
  audit?: AuditRecorder
}

/**
 * POST /api/admin/notify/send (§4.8, D9). Without an e-mail provider: records the history and
 * marks every waiting subscriber `notified`. With Resend: snapshots the recipients, records the
 * history as `queued` and starts the background delivery, which sets each recipient `notified`
 * once the provider accepted their e-mail and writes the final history. Recipients are chosen
 * under the product's send lock: a different send meanwhile is refused (SEND_IN_PROGRESS), and a
 * subscriber an open notice (a wave still delivering) holds is left out.
 */
export async function sendRestockNotification(
  request: SendRequest,
  options: SendOptions,
): Promise<SendSummary> {
  const { repositories, log } = options
  const now = options.now ?? Date.now
  const emailConfigured = checkEmailDelivery(options)
  const sender = checkSender(options)
  const { id: notificationId, open } = await notificationIdFor(request, repositories.history)
  if (open && isRunning(noticeStateOf(open))) return repeated(open, options)

  const choice = await chooseRecipients(
    { productSlug: request.productSlug, notificationId, now: now() },
    { ...repositories, isFinished, mayReceive: await restockRecipientRule(options) },
  )
  if (choice.state === 'busy') throw new AlreadyInProgressError(SEND_IN_PROGRESS)
  let stored: StoredNotice
  try {
    if (choice.subscribers.length === 0) {
      throw new InvalidInputError('No pending subscribers found for this product')
    }
    stored = await storeNotice(
      { ...request, notificationId, sender },
      choice.subscribers,
      open,
      emailConfigured,
      options,
    )
  } finally {
    await choice.release()
  }
  if (!stored.isNew) return repeated(stored.history, options)
  const summary = summaryOf(stored.history)
  if (!emailConfigured) return summary

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
            failedRecipients: current.recipientEmails.map((email) => ({ email, error: reason })),
            completedAt: new Date(now()).toISOString(),
          }
        : current,
    )
    throw new TryAgainLaterError('Email delivery could not be started; no e-mail was sent')
  }
  log.info('restock.send.queued', { notificationId, recipients: summary.sentCount })
  return summary
}

/**
 * One wave of a product's automatic notice (stock/stockWaves.ts): the same path as a manual send,
 * for at most `notice.limit` of the oldest waiting subscribers no open notice holds. A wave whose
 * notice is stored already (run twice) sends nothing more. When the background delivery cannot be
 * started, the notice stays `queued` for the scheduled resume.
 */
export async function sendRestockWave(
  notice: WaveNotice,
  options: SendOptions,
): Promise<WaveSendOutcome> {
  const { repositories, log } = options
  const now = options.now ?? Date.now
  const { notificationId } = notice
  const emailConfigured = checkEmailDelivery(options)
  const sender = checkSender(options)
  const existing = await repositories.history.get({ id: notificationId })
  if (existing) {
    return {
      state: 'sent',
      notificationId,
      recipients: existing.recipientEmails.length,
      deliveryMode: deliveryModeOf(existing),
    }
  }
  const choice = await chooseRecipients(
    {
      productSlug: notice.productSlug,
      notificationId,
      limit: notice.limit,
      now: now(),
    },
    { ...repositories, isFinished, mayReceive: await restockRecipientRule(options) },
  )
  if (choice.state === 'busy') return { state: 'busy' }
  let stored: StoredNotice
  try {
    if (choice.subscribers.length === 0) return { state: 'nobody-waiting' }
    stored = await storeNotice(
      { ...notice, sender },
      choice.subscribers,
      null,
      emailConfigured,
      options,
    )
  } finally {
    await choice.release()
  }
  const recipients = stored.history.recipientEmails.length
  if (stored.isNew && emailConfigured) {
    try {
      await options.startDelivery(notificationId)
    } catch (error) {
      if (!(error instanceof DeliveryStartError)) throw error
      log.error('stock.wave.start_failed', error, {
        notificationId,
        resumedBy: 'resume-stalled-deliveries, or POST /api/admin/notify/resume',
      })
    }
  }
  return { state: 'sent', notificationId, recipients, deliveryMode: deliveryModeOf(stored.history) }
}

/** How a notice reached people: e-mailed, or only recorded (no provider, §4.8). */
function deliveryModeOf(history: NotificationHistory): DeliveryMode {
  return noticeStateOf(history) === 'recorded' ? 'record-only' : 'email'
}

function isFinished(history: NotificationHistory): boolean {
  return !isRunning(noticeStateOf(history))
}

/**
 * Whether restock e-mails are delivered (else a send only records, §4.8); NotConfiguredError when
 * Resend is set but a part e-mails need is not.
 */
function checkEmailDelivery(options: SendOptions): boolean {
  const delivery = options.config.emailDelivery
  // why: without a provider a send only records (§4.8); with one, every e-mail needs its link
  if (!delivery.ready && delivery.missing !== 'provider') {
    options.log.error('restock.send.misconfigured', new NotConfiguredError(delivery.fix))
    throw new NotConfiguredError(delivery.message)
  }
  return delivery.ready
}

/**
 * The sender details every restock e-mail shows (特定電子メール法 Art. 4); in production a send
 * without them is refused (docs/compliance.md).
 */
function checkSender(options: SendOptions): SenderIdentity {
  try {
    return requireSenderIdentity(options.config)
  } catch (error) {
    if (error instanceof SenderIdentityMissingError) {
      options.log.error('restock.send.misconfigured', error, { fix: error.fix })
    }
    throw error
  }
}

/** Who is waiting now: the rule of the stock list's count too (compliance/restockRecipients.ts). */
async function restockRecipientRule(
  options: SendOptions,
): Promise<(subscription: NotifySubscription) => boolean> {
  const suppressed = await suppressedHashes(options.repositories.suppressions)
  return (subscription) => isWaiting(subscription, suppressed)
}

function summaryOf(history: NotificationHistory): SendSummary {
  return {
    notificationId: history.id,
    sentCount: history.sentCount,
    recipientEmails: history.recipientEmails,
    timestamp: history.timestamp,
  }
}

function repeated(existing: NotificationHistory, options: SendOptions): SendSummary {
  options.log.info('restock.send.repeated', {
    notificationId: existing.id,
    productSlug: existing.productSlug,
  })
  return summaryOf(existing)
}

interface NoticeToStore extends SendRequest {
  notificationId: string
  /** A wave's trigger; none for a staff member's send. */
  trigger?: NotificationTrigger
  /** The sender details the e-mails show, fixed in the delivery job. */
  sender: SenderIdentity
}

/** `isNew`: this call stored the notice; else `history` is the one stored before (the same notice). */
interface StoredNotice {
  history: NotificationHistory
  isNew: boolean
}

/**
 * Stores the delivery job (with e-mail) and the history of a notice for `subscribers`; without
 * e-mail, marks them `notified` at once (§4.8).
 */
async function storeNotice(
  notice: NoticeToStore,
  subscribers: NotifySubscription[],
  retried: NotificationHistory | null,
  emailConfigured: boolean,
  options: SendOptions,
): Promise<StoredNotice> {
  const { repositories, log } = options
  const now = options.now ?? Date.now
  const { notificationId } = notice
  const timestamp = new Date(now()).toISOString()
  const history: NotificationHistory = {
    id: notificationId,
    productSlug: notice.productSlug,
    emailTitle: notice.emailTitle,
    emailBody: notice.emailBody,
    recipientEmails: subscribers.map((subscription) => subscription.email),
    sentCount: subscribers.length,
    timestamp,
    ...storedState(emailConfigured ? 'queued' : 'recorded'),
    failedRecipients: [],
    ...(emailConfigured ? {} : { completedAt: timestamp }),
    ...(notice.trigger ? { trigger: notice.trigger } : {}),
  }
  if (emailConfigured) {
    // why: a job already stored under this id is the same notice (the id derives from it)
    await repositories.deliveries.saveJob({
      notificationId,
      productSlug: notice.productSlug,
      emailTitle: notice.emailTitle,
      emailBody: notice.emailBody,
      recipients: subscribers.map(({ id, email }) => ({ subscriptionId: id, email })),
      createdAt: timestamp,
      sender: notice.sender,
    } satisfies DeliveryJob)
  }
  const winner = await storeHistory(repositories.history, history, retried)
  if (winner !== history) return { history: winner, isNew: false }
  await options.audit?.record([
    {
      // why: without a provider nobody was e-mailed; the trail must not read as a send
      action: emailConfigured ? 'send' : 'send-record-only',
      record: { type: 'notification', id: notificationId, productSlug: notice.productSlug },
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
    const delivery = options.config.emailDelivery
    log.info('restock.send.recorded', {
      notificationId,
      productSlug: notice.productSlug,
      recipients: subscribers.length,
      trigger: notice.trigger?.kind ?? 'staff',
      reason: `${delivery.ready ? '' : delivery.fix}: no e-mail was sent`,
    })
  }
  return { history, isNew: true }
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
