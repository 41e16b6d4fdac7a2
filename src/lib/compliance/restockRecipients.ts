import { emailHash } from '../storage/emailHash.js'
import type { NotifySubscription } from '../storage/records.js'
import type { SuppressionRepository } from '../storage/suppressionRepository.js'

/**
 * Who a restock e-mail may go to (docs/compliance.md): a pending, non-archived subscription whose
 * subscriber did not opt out (or consented again after), that is confirmed when double opt-in
 * asked for it, and whose address is not suppressed.
 */
export function mayReceiveRestockEmail(
  subscription: NotifySubscription,
  suppressed: ReadonlySet<string>,
): boolean {
  if (subscription.status !== 'pending' || subscription.isArchived) return false
  if (subscription.confirmedAt === null) return false
  const { unsubscribedAt, consentedAt } = subscription
  if (
    unsubscribedAt !== undefined &&
    !(consentedAt !== undefined && consentedAt > unsubscribedAt)
  ) {
    return false
  }
  return !suppressed.has(emailHash(subscription.email))
}

/** The hashes of every suppressed address. */
export async function suppressedHashes(suppressions: SuppressionRepository): Promise<Set<string>> {
  const { records } = await suppressions.list()
  return new Set(records.map((entry) => entry.emailHash))
}
