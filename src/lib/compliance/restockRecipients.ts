import { targetKey } from '../productCatalogue.js'
import { emailHash } from '../storage/emailHash.js'
import type { NotifySubscription } from '../storage/records.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import type { SuppressionRepository } from '../storage/suppressionRepository.js'
import { waitingState, type NotWaitingReason } from './waitingRule.js'

/**
 * The waiting rule (waitingRule.ts) over stored subscriptions and the suppression list: whether
 * one subscription is waiting, and the count of every product.
 */

/** Whether a restock e-mail may go to the subscription now. */
export function isWaiting(
  subscription: NotifySubscription,
  suppressed: ReadonlySet<string>,
): boolean {
  return waitingState(subscription, suppressed.has(emailHash(subscription.email))) === 'waiting'
}

/**
 * The waiting rule of this moment as one predicate: the suppression list is read once. A send,
 * a wave and a sign-up's place in the queue all ask it.
 */
export async function waitingRule(
  suppressions: SuppressionRepository,
): Promise<(subscription: NotifySubscription) => boolean> {
  const suppressed = await suppressedHashes(suppressions)
  return (subscription) => isWaiting(subscription, suppressed)
}

/** The hashes of every suppressed address. */
export async function suppressedHashes(suppressions: SuppressionRepository): Promise<Set<string>> {
  const { records } = await suppressions.list()
  return new Set(records.map((entry) => entry.emailHash))
}

/** One product's count: who is waiting, and how many pending subscribers are not, by reason. */
export interface WaitingCount {
  waiting: number
  /** Of `waiting`, the LINE sign-ups. */
  lineWaiting: number
  notWaiting: Record<NotWaitingReason, number>
}

/**
 * The count of every product with a pending subscriber (others wait for nobody), keyed by
 * `targetKey`: a subscription of a variant counts for that variant (`slug/variantId`), one
 * without a variant for its product (`slug`).
 */
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
    const state = waitingState(subscription, suppressed.has(emailHash(subscription.email)))
    if (state === null) continue
    const key = targetKey(subscription)
    const count = counts.get(key) ?? emptyWaitingCount()
    if (state === 'waiting') {
      count.waiting++
      if (subscription.channel === 'line') count.lineWaiting++
    } else count.notWaiting[state]++
    counts.set(key, count)
  }
  return counts
}

/** Nobody waiting, nobody left out. */
export function emptyWaitingCount(): WaitingCount {
  return { waiting: 0, lineWaiting: 0, notWaiting: { optedOut: 0, unconfirmed: 0, suppressed: 0 } }
}
