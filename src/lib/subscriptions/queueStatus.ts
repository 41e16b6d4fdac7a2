import { createUnsubscribeToken } from '../compliance/unsubscribeToken.js'
import type { AppConfig } from '../config.js'
import {
  InvalidInputError,
  InvalidSignatureError,
  LinkExpiredError,
  NotConfiguredError,
  NotFoundError,
} from '../errors.js'
import { formatJst } from '../notifiers/jstTime.js'
import { pageShopOf } from '../pages/htmlPage.js'
import { targetTitle } from '../productCatalogue.js'
import type { Services } from '../services.js'
import type { NotifySubscription } from '../storage/records.js'
import { openHoldFor } from '../storage/restockHolds.js'
import { queuePlaceOf } from './queuePlace.js'
import { queueStatusErrorPage, queueStatusPage, type QueueState } from './queueStatusPages.js'
import { verifyStatusToken } from './statusLink.js'

/** A failure as the Japanese page (the page has no JSON form). */
export function queueStatusFailurePage(
  _req: Request,
  status: number,
  config: AppConfig | null,
): Response {
  return queueStatusErrorPage(status, pageShopOf(config))
}

export interface QueueStatusInput {
  req: Request
  services: Pick<Services, 'repositories' | 'config' | 'log' | 'now'>
}

/**
 * GET /notify/status: the 「入荷待ちの状況」 page of the sign-up the signed link names
 * (subscriptions/statusLink.ts). Reads only: the sign-up, its product's (or variant's) stock
 * record for an open hold, and for a pending one its queue (queuePlace.ts). A forged or altered
 * link answers the 403 page, an expired one 410, a garbled one 400, one of a deleted sign-up 404.
 */
export async function answerQueueStatus(input: QueueStatusInput): Promise<Response> {
  const { config, log, now, repositories } = input.services
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error('queue_status.misconfigured', new Error('UNSUBSCRIBE_SECRET is not set'))
    throw new NotConfiguredError('Status page is not available right now')
  }
  const token = new URL(input.req.url).searchParams.get('token')
  const check = verifyStatusToken(token, secret, now())
  if (!check.ok) {
    log.warn('queue_status.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature') {
      throw new InvalidSignatureError('Status link signature is not valid')
    }
    if (check.reason === 'expired') throw new LinkExpiredError('Status link has expired')
    throw new InvalidInputError('Invalid status link')
  }
  const subscription = await repositories.subscriptions.get(check.ref)
  if (!subscription) throw new NotFoundError('Subscription not found')
  const [state, hold] = await Promise.all([
    stateOf(subscription, repositories),
    openHoldFor(repositories.stock, subscription, now()),
  ])
  const open = subscription.status === 'pending' && !subscription.isArchived
  return queueStatusPage(
    {
      productTitle: targetTitle(subscription),
      signedUpAt: formatJst(subscription.createdAt),
      state,
      hold: hold ? { endsAt: formatJst(hold.endsAt) } : null,
      unsubscribeToken: open ? createUnsubscribeToken(subscription, secret) : null,
    },
    pageShopOf(config),
  )
}

/** Where the sign-up stands; only a pending one reads its queue. */
async function stateOf(
  subscription: NotifySubscription,
  repositories: QueueStatusInput['services']['repositories'],
): Promise<QueueState> {
  if (subscription.status === 'notified') {
    const { notifiedAt } = subscription
    return { kind: 'notified', notifiedAt: notifiedAt ? formatJst(notifiedAt) : null }
  }
  if (subscription.status === 'unsubscribed') {
    return { kind: 'ended', reason: subscription.unsubscribeReason ?? 'unsubscribed' }
  }
  if (subscription.isArchived) return { kind: 'ended', reason: 'archived' }
  const place = await queuePlaceOf(subscription, repositories)
  if (place) return { kind: 'waiting', place }
  return subscription.confirmedAt === null ? { kind: 'unconfirmed' } : { kind: 'paused' }
}
