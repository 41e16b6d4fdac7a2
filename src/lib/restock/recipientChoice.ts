import type { NotificationHistory, NotifySubscription } from '../storage/records.js'
import type { HistoryRepository, SubscriptionRepository } from '../storage/repositories.js'
import {
  SEND_LOCK_EXPIRY_MS,
  type SendClaimBook,
  type SubscriberClaim,
} from '../storage/sendClaims.js'

/**
 * Who one send (manual or wave) e-mails: under the product's send lock (one lock per product,
 * whether the send is for the whole product or one variant), the waiting subscribers of the
 * product, or of one variant (`isWaiting`, the rule of the stock list's count), oldest sign-up
 * first, that no other open
 * notice holds, each claimed for this notice. A manual send takes everyone it can claim; a wave at
 * most `limit`. A notice that is over holds nobody: whoever it notified is no longer pending, and
 * whoever is pending again (set back to 未通知 by staff, or not reached) is waiting, for a manual
 * send and a wave alike.
 */

export interface RecipientRequest {
  productSlug: string
  /** Only subscribers waiting for this variant. Default: every subscriber of the product. */
  variant?: string
  /** The notification that will e-mail them (the claims' holder). */
  notificationId: string
  /** At most this many (waves). Default: all. */
  limit?: number
  now: number
}

export interface RecipientSources {
  sendClaims: SendClaimBook
  subscriptions: SubscriptionRepository
  history: HistoryRepository
  /** Whether a stored notice is over (its claims may be taken over). */
  isFinished: (history: NotificationHistory) => boolean
  /** Whether a pending subscriber is waiting (opt-out, confirmation, suppression). Default: all. */
  mayReceive?: (subscription: NotifySubscription) => boolean
}

/** `busy`: another send holds the product's lock; else the claimed subscribers, oldest first. */
export type RecipientChoice =
  | { state: 'busy' }
  | { state: 'chosen'; subscribers: NotifySubscription[]; release: () => Promise<void> }

/**
 * Pending, non-archived subscribers of one product (of one variant of it, when `variant` is
 * given), oldest sign-up first.
 */
export async function pendingSubscribers(
  subscriptions: SubscriptionRepository,
  productSlug: string,
  variant?: string,
): Promise<NotifySubscription[]> {
  const { records } = await subscriptions.listProduct(productSlug)
  return records
    .filter(
      (subscription) =>
        subscription.status === 'pending' &&
        !subscription.isArchived &&
        (variant === undefined || subscription.variant === variant),
    )
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
}

export async function chooseRecipients(
  request: RecipientRequest,
  sources: RecipientSources,
): Promise<RecipientChoice> {
  const { productSlug, notificationId } = request
  const { sendClaims } = sources
  const lock = await sendClaims.takeLock(productSlug, notificationId, request.now)
  if (!lock.taken) return { state: 'busy' }
  const release = () => sendClaims.releaseLock(productSlug, notificationId, request.now)
  try {
    const listed = await pendingSubscribers(sources.subscriptions, productSlug, request.variant)
    const pending = sources.mayReceive ? listed.filter(sources.mayReceive) : listed
    // why: per holder, whether its claims are free: a notice that never got stored (its claimer
    // died and its lock expired) holds nobody; a finished one holds nobody either
    const free = new Map<string, Promise<boolean>>()
    const mayTakeOver = (claim: SubscriberClaim) => {
      let known = free.get(claim.holderId)
      if (!known) {
        known = sources.history
          .get({ id: claim.holderId })
          .then((history) =>
            history
              ? sources.isFinished(history)
              : request.now - Date.parse(claim.claimedAt) >= SEND_LOCK_EXPIRY_MS,
          )
        free.set(claim.holderId, known)
      }
      return known
    }
    const claimed = new Set(
      await sendClaims.claim({
        productSlug,
        subscriptionIds: pending.map((subscription) => subscription.id),
        holderId: notificationId,
        limit: request.limit,
        mayTakeOver,
        now: request.now,
      }),
    )
    return {
      state: 'chosen',
      subscribers: pending.filter((subscription) => claimed.has(subscription.id)),
      release,
    }
  } catch (error) {
    await release()
    throw error
  }
}
