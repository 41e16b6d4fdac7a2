import { emailHash } from '../storage/emailHash.js'
import type { NotifySubscription } from '../storage/records.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import type { SuppressionRepository } from '../storage/suppressionRepository.js'

/**
 * Who is waiting for a restock e-mail: the one rule the stock list's count, a staff member's send
 * and an automatic wave all ask (docs/compliance.md). A pending, non-archived subscription is
 * waiting (also one staff set back to pending) unless its subscriber opted out and did not consent
 * again after, it is not confirmed while double opt-in asked for it, or its address is suppressed.
 */

/** Why a pending subscription is not waiting, in the order they are checked. */
export const NOT_WAITING_REASONS = ['optedOut', 'unconfirmed', 'suppressed'] as const
export type NotWaitingReason = (typeof NOT_WAITING_REASONS)[number]

/**
 * `waiting`, the reason a pending subscription is not, or null for one that is not pending or
 * is archived (it waits for nothing).
 */
export function waitingState(
  subscription: NotifySubscription,
  suppressed: ReadonlySet<string>,
): 'waiting' | NotWaitingReason | null {
  if (subscription.status !== 'pending' || subscription.isArchived) return null
  const { unsubscribedAt, consentedAt } = subscription
  if (
    unsubscribedAt !== undefined &&
    !(consentedAt !== undefined && consentedAt > unsubscribedAt)
  ) {
    return 'optedOut'
  }
  if (subscription.confirmedAt === null) return 'unconfirmed'
  if (suppressed.has(emailHash(subscription.email))) return 'suppressed'
  return 'waiting'
}

/** Whether a restock e-mail may go to the subscription now. */
export function isWaiting(
  subscription: NotifySubscription,
  suppressed: ReadonlySet<string>,
): boolean {
  return waitingState(subscription, suppressed) === 'waiting'
}

/** The hashes of every suppressed address. */
export async function suppressedHashes(suppressions: SuppressionRepository): Promise<Set<string>> {
  const { records } = await suppressions.list()
  return new Set(records.map((entry) => entry.emailHash))
}

/** One product's count: who is waiting, and how many pending subscribers are not, by reason. */
export interface WaitingCount {
  waiting: number
  notWaiting: Record<NotWaitingReason, number>
}

/** The count of every product with a pending subscriber (others wait for nobody). */
export async function waitingCounts(sources: {
  subscriptions: SubscriptionRepository
  suppressions: SuppressionRepository
}): Promise<Map<string, WaitingCount>> {
  const [subscriptions, suppressed] = await Promise.all([
    sources.subscriptions.list(),
    suppressedHashes(sources.suppressions),
  ])
  const counts = new Map<string, WaitingCount>()
  for (const subscription of subscriptions.records) {
    const state = waitingState(subscription, suppressed)
    if (state === null) continue
    const count = counts.get(subscription.productSlug) ?? emptyWaitingCount()
    if (state === 'waiting') count.waiting++
    else count.notWaiting[state]++
    counts.set(subscription.productSlug, count)
  }
  return counts
}

/** Nobody waiting, nobody left out. */
export function emptyWaitingCount(): WaitingCount {
  return { waiting: 0, notWaiting: { optedOut: 0, unconfirmed: 0, suppressed: 0 } }
}
