import { waitingRule } from '../compliance/restockRecipients.js'
import { requireSenderIdentity, SenderIdentityMissingError } from '../compliance/senderIdentity.js'
import type { AppConfig } from '../config.js'
import { NotConfiguredError } from '../errors.js'
import type { LineQuota } from '../notifiers/linePusher.js'
import type { ShopNotifiers } from '../notifiers/shopNotifiers.js'
import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import type { NotificationHistory, NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { isRunning, noticeStateOf } from './noticeState.js'
import {
  storeNotice,
  type NoticeStoreOptions,
  type NoticeToStore,
  type StoredNotice,
} from './noticeStore.js'
import { unheldUnits, withHoldsAdded } from '../storage/restockHolds.js'
import type { StockRef } from '../storage/stockRecords.js'
import { chooseRecipients } from './recipientChoice.js'

/** The stock record whose units a send's holds keep: the product's, or its variant's. */
export function holdTarget(notice: { productSlug: string; variant?: string }): StockRef {
  return notice.variant === undefined
    ? { productSlug: notice.productSlug }
    : { productSlug: notice.productSlug, variant: notice.variant }
}

/**
 * What a staff member's send and an automatic wave share: the checks of the configuration, then
 * one preparation, under the product's send lock: the recipients chosen, the notice stored.
 */

/** What a send uses (the wiring's services have it all). */
export interface SendOptions extends NoticeStoreOptions {
  repositories: Pick<
    Repositories,
    'subscriptions' | 'history' | 'deliveries' | 'sendClaims' | 'suppressions' | 'stock'
  >
  config: Pick<
    AppConfig,
    | 'emailDelivery'
    | 'line'
    | 'unsubscribeSecret'
    | 'shopName'
    | 'shopAddress'
    | 'shopContact'
    | 'deployContext'
  >
  /** Starts the background delivery; rejects with DeliveryStartError when it cannot. */
  startDelivery: (notificationId: string) => Promise<void>
  /** This month's LINE quota, which caps a wave's LINE recipients. Default: no cap. */
  lineQuota?: () => Promise<LineQuota | null>
  /** Where staff are told that a wave left LINE sign-ups waiting. Default: nowhere. */
  notifiers?: Pick<ShopNotifiers, 'teamchatRestock'>
}

/** Whether e-mails and LINE pushes go out, and who they say sends them. */
export interface SendReadiness {
  emailConfigured: boolean
  /** The four LINE variables are set: LINE recipients are pushed, whatever the e-mail provider. */
  lineConfigured: boolean
  sender: SenderIdentity
}

/** The 503 text when LINE is set, e-mail is not, and the pushes' links cannot be signed. */
export const LINE_NOT_READY = 'LINE delivery is not configured: UNSUBSCRIBE_SECRET is not set'

/**
 * Checks, before anything is read: e-mail delivery (else a send only records its e-mail
 * recipients, §4.8; NotConfiguredError when Resend is set but a part e-mails need is not), LINE
 * delivery (its pushes run with or without e-mail; the delivery ticket and the pushes' links are
 * signed with UNSUBSCRIBE_SECRET, so LINE without it is refused too), then the sender details
 * every restock message shows (特定電子メール法 Art. 4; in production a send without them is
 * refused, docs/compliance.md).
 */
export function sendReadiness(options: SendOptions): SendReadiness {
  const { config } = options
  const delivery = config.emailDelivery
  // why: without a provider a send only records (§4.8); with one, every e-mail needs its link
  if (!delivery.ready && delivery.missing !== 'provider') {
    options.log.error('restock.send.misconfigured', new NotConfiguredError(delivery.fix))
    throw new NotConfiguredError(delivery.message)
  }
  const lineConfigured = config.line !== null
  if (lineConfigured && !config.unsubscribeSecret) {
    options.log.error(
      'restock.send.misconfigured',
      new NotConfiguredError(
        'UNSUBSCRIBE_SECRET is not set, so no LINE push can carry a signed link. ' +
          'Set it to a long random value (e.g. `openssl rand -hex 32`) in the site environment.',
      ),
    )
    throw new NotConfiguredError(LINE_NOT_READY)
  }
  try {
    return {
      emailConfigured: delivery.ready,
      lineConfigured,
      sender: requireSenderIdentity(options.config),
    }
  } catch (error) {
    if (error instanceof SenderIdentityMissingError) {
      options.log.error('restock.send.misconfigured', error, { fix: error.fix })
    }
    throw error
  }
}

/** The notice to prepare, and which subscribers it may reach. */
export interface NoticeToPrepare extends Omit<NoticeToStore, 'sender'> {
  /** Most recipients (a wave's size). Default: every waiting subscriber. */
  limit?: number
  /**
   * Most LINE recipients (a wave: what is left of the month's LINE quota); the LINE sign-ups past
   * it are not chosen and wait. Default: no limit.
   */
  lineAllowance?: number
  /** The failed history of a notice whose delivery never started, replaced by this one. */
  retried: NotificationHistory | null
}

export type Preparation =
  | { state: 'busy' }
  | { state: 'nobody-waiting' }
  /** Holds asked for, but every unit in stock is held (or none is in stock). */
  | { state: 'all-held' }
  | (StoredNotice & {
      state: 'stored'
      /** LINE sign-ups the notice would have reached but for `lineAllowance`. */
      lineHeldBack: number
    })

/**
 * Takes the product's send lock, chooses the notice's recipients (oldest first, each claimed),
 * and stores the notice for them; the lock is released whatever happens. `busy` while another
 * send holds the lock; `nobody-waiting` when no subscriber may receive it. With `holdHours` (and
 * e-mail delivery) it e-mails at most the units in stock no hold keeps, and gives each recipient
 * a pending hold (storage/restockHolds.ts); `all-held` when no unit is free.
 */
export async function prepareNotice(
  notice: NoticeToPrepare,
  readiness: SendReadiness,
  options: SendOptions,
): Promise<Preparation> {
  const { limit: asked, retried, holdHours, lineAllowance, ...content } = notice
  const { repositories } = options
  // why: without e-mail nobody gets a link, so nothing is held (the send only records, §4.8)
  const holding = holdHours !== undefined && holdHours > 0 && readiness.emailConfigured
  let limit = asked
  if (holding) {
    const stock = await repositories.stock.get(holdTarget(notice))
    const free = stock ? unheldUnits(stock) : 0
    if (free === 0) return { state: 'all-held' }
    limit = Math.min(limit ?? free, free)
  }
  // why: who is waiting is one rule, the stock list's count's too (compliance/restockRecipients.ts);
  // a LINE sign-up past the month's quota waits for a later wave
  const waiting = await waitingRule(repositories.suppressions)
  let lineLeft = lineAllowance ?? Number.POSITIVE_INFINITY
  const heldBack: NotifySubscription[] = []
  const mayReceive = (subscription: NotifySubscription) => {
    if (!waiting(subscription)) return false
    if (subscription.channel !== 'line') return true
    if (lineLeft <= 0) {
      heldBack.push(subscription)
      return false
    }
    lineLeft -= 1
    return true
  }
  const choice = await chooseRecipients(
    {
      productSlug: notice.productSlug,
      ...(notice.variant === undefined ? {} : { variant: notice.variant }),
      notificationId: notice.notificationId,
      ...(limit === undefined ? {} : { limit }),
      now: options.now(),
    },
    {
      ...repositories,
      isFinished: (history) => !isRunning(noticeStateOf(history)),
      mayReceive,
    },
  )
  if (choice.state === 'busy') return { state: 'busy' }
  try {
    if (choice.subscribers.length === 0) return { state: 'nobody-waiting' }
    const stored = await storeNotice(
      { ...content, ...(holding ? { holdHours } : {}), sender: readiness.sender },
      choice.subscribers,
      retried,
      readiness,
      options,
    )
    if (holding) {
      const { notificationId } = notice
      const hours = holdHours
      await repositories.stock.change(holdTarget(notice), (record) =>
        withHoldsAdded(
          record,
          choice.subscribers.map(({ id }) => ({ subscriptionId: id, notificationId, hours })),
          options.now(),
        ),
      )
    }
    const chosen = choice.subscribers
    const full = limit !== undefined && chosen.length >= limit
    const last = chosen[chosen.length - 1]
    // why: only those older than the last one chosen (or any, when the notice was not full) would
    // have been in it
    const lineHeldBack = heldBack.filter(
      (subscription) => !full || subscription.createdAt < last.createdAt,
    ).length
    return { state: 'stored', ...stored, lineHeldBack }
  } finally {
    await choice.release()
  }
}
