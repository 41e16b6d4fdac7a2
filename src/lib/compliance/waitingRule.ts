import type { NotifySubscription } from '../storage/records.js'

/**
 * Who is waiting for a restock e-mail: the one rule the stock list's count, a staff member's send
 * and an automatic wave all ask (through restockRecipients.ts), and by which the dashboard marks
 * the sign-ups that are not (docs/compliance.md). A pending, non-archived subscription is waiting
 * (also one staff set back to pending) unless its subscriber opted out and did not consent again
 * after, it is not confirmed while double opt-in asked for it, or its address is suppressed.
 * Plain data only: the dashboard's bundle imports it.
 */

/** Why a pending subscription is not waiting, in the order they are checked. */
export const NOT_WAITING_REASONS = ['optedOut', 'unconfirmed', 'suppressed'] as const
export type NotWaitingReason = (typeof NOT_WAITING_REASONS)[number]

/**
 * `waiting`, the reason a pending subscription is not, or null for one that is not pending or
 * is archived (it waits for nothing). `suppressed`: whether its address is on the suppression
 * list.
 */
export function waitingState(
  subscription: Pick<NotifySubscription, 'unsubscribedAt' | 'consentedAt' | 'confirmedAt'> & {
    status: string
    isArchived?: boolean
  },
  suppressed: boolean,
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
  return suppressed ? 'suppressed' : 'waiting'
}
