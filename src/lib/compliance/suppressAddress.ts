import { mapWithConcurrency } from '../concurrency.js'
import { normaliseEmail } from '../storage/emailHash.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import type {
  Suppression,
  SuppressionReason,
  SuppressionRepository,
} from '../storage/suppressionRepository.js'

export interface SuppressDeps {
  subscriptions: SubscriptionRepository
  suppressions: SuppressionRepository
}

/**
 * Puts an address on the suppression list and ends its pending subscriptions (`unsubscribed`,
 * `unsubscribedAt` set, compare-and-swap each). Answers the entry and how many subscriptions ended.
 */
export async function suppressAddress(
  deps: SuppressDeps,
  email: string,
  reason: SuppressionReason,
  at: string,
): Promise<{ entry: Suppression; unsubscribed: number }> {
  const address = normaliseEmail(email)
  const entry = await deps.suppressions.suppress(address, reason, at)
  const { records } = await deps.subscriptions.list()
  const pending = records.filter(
    (subscription) =>
      normaliseEmail(subscription.email) === address && subscription.status === 'pending',
  )
  let unsubscribed = 0
  await mapWithConcurrency(pending, 10, async (subscription) => {
    const updated = await deps.subscriptions.update(subscription, (current) =>
      current.status === 'pending'
        ? { ...current, status: 'unsubscribed', unsubscribedAt: at }
        : current,
    )
    if (updated?.status === 'unsubscribed') unsubscribed += 1
  })
  return { entry, unsubscribed }
}
