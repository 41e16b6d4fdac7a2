import type { AuditRecorder } from '../audit/auditTrail.js'
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
 * `unsubscribedAt` set, compare-and-swap each), each recorded in `audit` when given. Answers the
 * entry and how many subscriptions ended.
 */
export async function suppressAddress(
  deps: SuppressDeps,
  email: string,
  reason: SuppressionReason,
  at: string,
  audit?: AuditRecorder,
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
    let ended = false
    const updated = await deps.subscriptions.update(subscription, (current) => {
      ended = current.status === 'pending'
      return ended ? { ...current, status: 'unsubscribed', unsubscribedAt: at } : current
    })
    if (updated?.status === 'unsubscribed') unsubscribed += 1
    if (updated && ended) {
      const { id, productSlug } = updated
      await audit?.record([
        {
          action: 'status',
          record: { type: 'subscription', id, productSlug },
          from: 'pending',
          to: 'unsubscribed',
        },
      ])
    }
  })
  return { entry, unsubscribed }
}
