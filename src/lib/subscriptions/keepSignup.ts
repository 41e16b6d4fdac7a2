import { z } from '../../generated/zod.js'
import { verifyKeepToken, KEEP_ANSWER_MS } from '../compliance/keepToken.js'
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
import { keepErrorPage, keepPage, keptPage } from './keepPages.js'
import { wantsJson } from './unsubscribeRequest.js'

/** The form body of the keep page's button (the token). */
export const keepForm = z.object({ token: z.string().optional() })

/** A failure as the Japanese page, unless the caller asked for JSON. */
export function keepErrorAnswer(
  req: Request,
  status: number,
  config: AppConfig | null,
): Response | null {
  return wantsJson(req) ? null : keepErrorPage(status, pageShopOf(config))
}

export interface KeepInput {
  req: Request
  form: z.output<typeof keepForm> | undefined
  services: Pick<Services, 'repositories' | 'config' | 'log' | 'now'>
}

/** Whether the sign-up answered the question asked at `askedAt` already. */
function keptSince(subscription: NotifySubscription, askedAt: string): boolean {
  return subscription.keptAt !== undefined && subscription.keptAt >= askedAt
}

/**
 * GET/POST /api/notify-keep: the keep link of the 「引き続き入荷のお知らせを希望されますか」
 * e-mail (subscriptions/signupExpiry.ts). GET shows the question with one button and changes
 * nothing (mail scanners follow links); POST keeps the sign-up (`keptAt`, compare-and-swap),
 * once: a link used again, or naming a question already answered, changes nothing and says so.
 * A forged or altered link answers 403, an expired one (the 14 days are over) or one of a sign-up
 * that has ended 410. JSON answers say whether it was kept before.
 */
export async function answerKeep(input: KeepInput): Promise<Response | { alreadyKept: boolean }> {
  const { req } = input
  const { config, log, now } = input.services
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error('keep.misconfigured', new Error('UNSUBSCRIBE_SECRET is not set'))
    throw new NotConfiguredError('Keep link is not available right now')
  }
  const token = new URL(req.url).searchParams.get('token') || input.form?.token || null
  const check = verifyKeepToken(token, secret, now())
  if (!check.ok) {
    log.warn('keep.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature')
      throw new InvalidSignatureError('Keep link signature is not valid')
    if (check.reason === 'expired') throw new LinkExpiredError('Keep link has expired')
    throw new InvalidInputError('Invalid keep link')
  }
  const { subscriptions } = input.services.repositories
  const found = await subscriptions.get(check.ref)
  if (!found) throw new NotFoundError('Subscription not found')
  const title = targetTitle(found)
  const shop = pageShopOf(config)
  const answer = (alreadyKept: boolean) =>
    wantsJson(req) ? { alreadyKept } : keptPage(title, alreadyKept, shop)
  const { askedAt } = check
  if (found.status === 'pending' && keptSince(found, askedAt)) return answer(true)
  if (found.status !== 'pending' || found.keepAskedAt !== askedAt) {
    throw new LinkExpiredError('Subscription has ended')
  }
  if (req.method === 'GET') {
    const endsAt = formatJst(new Date(Date.parse(askedAt) + KEEP_ANSWER_MS).toISOString())
    return keepPage(title, endsAt, token ?? '', shop)
  }
  const at = new Date(now()).toISOString()
  const stored = await subscriptions.update(found, (current) =>
    current.status === 'pending' && current.keepAskedAt === askedAt && !keptSince(current, askedAt)
      ? { ...current, keptAt: at }
      : current,
  )
  if (stored?.keptAt === at) {
    log.info('keep.done', { subscriptionId: found.id })
    return answer(false)
  }
  // why: something else changed it between the read and the write: judge what it is now
  if (stored?.status === 'pending' && keptSince(stored, askedAt)) return answer(true)
  throw new LinkExpiredError('Subscription has ended')
}
