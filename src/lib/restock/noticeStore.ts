import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import type { DeliveryJob, SenderIdentity } from '../storage/deliveryJobStore.js'
import type {
  NotificationHistory,
  NotificationTrigger,
  NotifySubscription,
} from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { isOpen } from './notificationIds.js'
import { isRunning, noticeStateOf, storedState } from './noticeState.js'
import type { SendRequest } from './sendRequest.js'

/** What storing a notice uses. */
export interface NoticeStoreOptions {
  repositories: Pick<Repositories, 'subscriptions' | 'history' | 'deliveries'>
  config: Pick<AppConfig, 'emailDelivery'>
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** Where the send is recorded (the audit trail). Default: nowhere. */
  audit?: AuditRecorder
}

export interface NoticeToStore extends SendRequest {
  notificationId: string
  /** A wave's trigger; none for a staff member's send. */
  trigger?: NotificationTrigger
  /** The sender details the e-mails show, fixed in the delivery job. */
  sender: SenderIdentity
}

/**
 * `isNew`: this call stored the notice; else `history` is the one stored before (the same notice).
 * `markRecorded`: marks the recipients only recorded `notified`; a notice whose LINE recipients
 * are pushed calls it once its delivery started (nothing changes when it cannot start), any other
 * notice has it done already.
 */
export interface StoredNotice {
  history: NotificationHistory
  isNew: boolean
  markRecorded: () => Promise<void>
}

const NOTHING_TO_MARK = async () => {}

/**
 * Stores the delivery job and the history of a notice for `subscribers`. With e-mail, the job
 * holds every recipient. Without it, the e-mail recipients are marked `notified` (§4.8): at once,
 * or, when LINE is configured and LINE recipients wait, by `markRecorded` once the delivery of the
 * job of the LINE recipients alone started; the notice is `record-only` throughout (`isEmailed`).
 */
export async function storeNotice(
  notice: NoticeToStore,
  subscribers: NotifySubscription[],
  retried: NotificationHistory | null,
  readiness: { emailConfigured: boolean; lineConfigured: boolean },
  options: NoticeStoreOptions,
): Promise<StoredNotice> {
  const { repositories } = options
  const { notificationId } = notice
  const { emailConfigured } = readiness
  const timestamp = new Date(options.now()).toISOString()
  const variant = notice.variant === undefined ? {} : { variant: notice.variant }
  const pushed = (subscription: NotifySubscription) =>
    readiness.lineConfigured && subscription.channel === 'line'
  const delivered = emailConfigured ? subscribers : subscribers.filter(pushed)
  const recorded = emailConfigured ? [] : subscribers.filter((item) => !pushed(item))
  const delivering = delivered.length > 0
  const history: NotificationHistory = {
    id: notificationId,
    productSlug: notice.productSlug,
    ...variant,
    emailTitle: notice.emailTitle,
    emailBody: notice.emailBody,
    recipientEmails: subscribers.map((subscription) => subscription.email),
    sentCount: subscribers.length,
    timestamp,
    ...storedState(delivering ? 'queued' : 'recorded', emailConfigured),
    failedRecipients: [],
    ...(delivering ? {} : { completedAt: timestamp }),
    ...(delivering && recorded.length > 0 ? { recordedCount: recorded.length } : {}),
    ...(notice.trigger ? { trigger: notice.trigger } : {}),
  }
  if (delivering) {
    // why: a job already stored under this id is the same notice (the id derives from it)
    await repositories.deliveries.saveJob({
      notificationId,
      productSlug: notice.productSlug,
      ...variant,
      emailTitle: notice.emailTitle,
      emailBody: notice.emailBody,
      // why: a whole product's notice names each recipient's own variant in its e-mail
      recipients: delivered.map(({ id, email, variant: waitsFor, channel, lineUserId }) => ({
        subscriptionId: id,
        email,
        ...(channel === 'line' && lineUserId ? { lineUserId } : {}),
        ...(waitsFor === undefined ? {} : { variant: waitsFor }),
      })),
      ...(recorded.length > 0 ? { recordedCount: recorded.length } : {}),
      createdAt: timestamp,
      sender: notice.sender,
      ...(notice.holdHours ? { holdHours: notice.holdHours } : {}),
    } satisfies DeliveryJob)
  }
  const winner = await storeHistory(repositories.history, history, retried)
  if (winner !== history) return { history: winner, isNew: false, markRecorded: NOTHING_TO_MARK }
  await options.audit?.record([
    {
      // why: without a provider nobody was e-mailed; the trail must not read as a send
      action: emailConfigured ? 'send' : 'send-record-only',
      record: { type: 'notification', id: notificationId, productSlug: notice.productSlug },
      from: null,
      to: String(subscribers.length),
    },
  ])
  const markRecorded = () =>
    recordNotified(recorded, { ...notice, timestamp, linePushes: delivered.length }, options)
  if (delivering) return { history, isNew: true, markRecorded }
  await markRecorded()
  return { history, isNew: true, markRecorded: NOTHING_TO_MARK }
}

/** Marks the recipients a notice only recorded `notified` (§4.8) and logs it. */
async function recordNotified(
  recorded: NotifySubscription[],
  notice: Pick<NoticeToStore, 'notificationId' | 'productSlug' | 'trigger'> & {
    timestamp: string
    linePushes: number
  },
  options: NoticeStoreOptions,
): Promise<void> {
  if (recorded.length === 0) return
  const { timestamp } = notice
  await mapWithConcurrency(recorded, 20, (subscription) =>
    options.repositories.subscriptions.update(subscription, (current) =>
      // why: someone who unsubscribed (or was handled by an admin) meanwhile keeps that status
      current.status === 'pending'
        ? { ...current, status: 'notified', notifiedAt: timestamp }
        : current,
    ),
  )
  const delivery = options.config.emailDelivery
  options.log.info('restock.send.recorded', {
    notificationId: notice.notificationId,
    productSlug: notice.productSlug,
    recipients: recorded.length,
    linePushes: notice.linePushes,
    trigger: notice.trigger?.kind ?? 'staff',
    reason: `${delivery.ready ? '' : delivery.fix}: no e-mail was sent`,
  })
}

/**
 * Stores the history of this send: a new record (`onlyIfNew`), or, for a notice whose delivery
 * never started (`retried`), the failed record replaced if it is still that. Answers `record`
 * when this send stored it, else the history a concurrent identical send stored (the same notice).
 */
async function storeHistory(
  history: NoticeStoreOptions['repositories']['history'],
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
