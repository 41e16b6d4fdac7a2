import { waitingRule } from '../compliance/restockRecipients.js'
import { waitingQueue } from '../restock/recipientChoice.js'
import type { NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import type { QueuePlace } from '../messages/queuePlaceText.js'

/**
 * A sign-up's place in the queue: its place in the queue a restock send or wave takes its
 * recipients from (restock/recipientChoice.ts `waitingQueue`, under the one waiting rule of
 * compliance/restockRecipients.ts), so the 12th in line is the 12th a wave e-mails. The queue is
 * the product's, or the variant's for a sign-up that waits for one variant. Reads the product's
 * own index partition and the suppression list, never the shop's other sign-ups.
 */

type QueueSources = Pick<Repositories, 'subscriptions' | 'suppressions'>

/** The waiting queue of the sign-up's product, or of the variant it waits for. */
async function queueOf(
  target: Pick<NotifySubscription, 'productSlug' | 'variant'>,
  repositories: QueueSources,
): Promise<NotifySubscription[]> {
  const mayReceive = await waitingRule(repositories.suppressions)
  return waitingQueue(
    repositories.subscriptions,
    {
      productSlug: target.productSlug,
      ...(target.variant === undefined ? {} : { variant: target.variant }),
    },
    mayReceive,
  )
}

/**
 * The sign-up's place, or null when it is not waiting (notified, ended, unconfirmed, suppressed
 * …). Only its id and target are read from `subscription`: the stored record decides.
 */
export async function queuePlaceOf(
  subscription: Pick<NotifySubscription, 'id' | 'productSlug' | 'variant'>,
  repositories: QueueSources,
): Promise<QueuePlace | null> {
  const queue = await queueOf(subscription, repositories)
  const index = queue.findIndex((waiting) => waiting.id === subscription.id)
  return index < 0 ? null : { place: index + 1, waiting: queue.length }
}

/**
 * The place a sign-up made now would get: last of the queue, which it joins. The answer to a
 * request the honeypot caught, so that it reads as a person's sign-up (forms/honeypot.ts).
 */
export async function newcomerPlace(
  target: Pick<NotifySubscription, 'productSlug' | 'variant'>,
  repositories: QueueSources,
): Promise<QueuePlace> {
  const waiting = (await queueOf(target, repositories)).length + 1
  return { place: waiting, waiting }
}
