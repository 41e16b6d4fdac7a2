import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { NotifySubscription, UnsubscribeReason } from '../storage/records.js'
import type { SubscriptionRepository } from '../storage/repositories.js'

/** What ending sign-ups that no person ended needs. */
export interface EndSubscriptionsOptions {
  subscriptions: SubscriptionRepository
  /** Where each one ended is recorded (the automatic source's actor). */
  audit: AuditRecorder
  /** Why they end (`unsubscribeReason`). */
  reason: UnsubscribeReason
  /** When, ISO (`unsubscribedAt`). */
  at: string
  /** Whether the stored record, read again at the write, still ends (the rule that chose it). */
  stillEnds: (current: NotifySubscription) => boolean
}

/**
 * Ends pending sign-ups for an automatic reason (a purchase, an unanswered keep question):
 * `unsubscribed` with `unsubscribeReason`, each by compare-and-swap on the stored record, which
 * must still end by `stillEnds`, so a run again or at once ends nobody twice. Records each one in
 * the audit trail; answers those this call ended.
 */
export async function endSubscriptions(
  due: readonly NotifySubscription[],
  options: EndSubscriptionsOptions,
): Promise<NotifySubscription[]> {
  const { at, reason } = options
  const ended = await mapWithConcurrency(due, 5, async (subscription) => {
    let changed = false
    await options.subscriptions.update(subscription, (current) => {
      changed = current.status === 'pending' && options.stillEnds(current)
      return changed
        ? { ...current, status: 'unsubscribed', unsubscribedAt: at, unsubscribeReason: reason }
        : current
    })
    return changed ? subscription : null
  })
  const done = ended.filter((subscription): subscription is NotifySubscription => !!subscription)
  await options.audit.record(
    done.map(({ id, productSlug }) => ({
      action: 'status' as const,
      record: { type: 'subscription' as const, id, productSlug },
      from: 'pending',
      to: 'unsubscribed',
    })),
  )
  return done
}
