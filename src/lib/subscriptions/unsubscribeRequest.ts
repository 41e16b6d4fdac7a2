import { z } from '../../generated/zod.js'
import {
  InvalidInputError,
  InvalidSignatureError,
  NotConfiguredError,
  NotFoundError,
} from '../errors.js'
import { targetTitle } from '../productCatalogue.js'
import type { Services } from '../services.js'
import type { AppConfig } from '../config.js'
import { pageShopOf } from '../pages/htmlPage.js'
import { confirmPage, donePage, errorPage } from './unsubscribePages.js'
import {
  MissingUnsubscribeSecretError,
  verifyUnsubscribeToken,
} from '../compliance/unsubscribeToken.js'

/** The form body of the confirmation page's button and of an RFC 8058 one-click POST. */
export const unsubscribeForm = z.object({ token: z.string().optional() })

/** Whether the caller asked for JSON rather than a page (scripts, the admin UI). */
export function wantsJson(req: Request): boolean {
  const accept = req.headers.get('accept') ?? ''
  return accept.includes('application/json') && !accept.includes('text/html')
}

/** A failure as the Japanese page, unless the caller asked for JSON. */
export function unsubscribeErrorPage(
  req: Request,
  status: number,
  config: AppConfig | null,
): Response | null {
  return wantsJson(req) ? null : errorPage(status, pageShopOf(config))
}

export interface UnsubscribeInput {
  req: Request
  /** The form body of a POST (token), if any. */
  form: z.output<typeof unsubscribeForm> | undefined
  services: Pick<Services, 'repositories' | 'config' | 'log' | 'audit' | 'now'>
}

/**
 * GET/POST /api/notify-unsubscribe (D9). GET shows a confirmation page and changes nothing
 * (mail scanners follow links); POST — the page's button or a mail client's RFC 8058 one-click
 * `List-Unsubscribe=One-Click` — sets the subscription `unsubscribed` (compare-and-swap, so a
 * delivery marking it notified at the same moment cannot undo it). Answers HTML pages, or JSON
 * when the caller accepts only JSON (the fields of a success: none).
 */
export async function answerUnsubscribe(input: UnsubscribeInput): Promise<Response | object> {
  const { req } = input
  const { config, log } = input.services
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error('unsubscribe.misconfigured', new MissingUnsubscribeSecretError())
    throw new NotConfiguredError('Unsubscribe is not available right now')
  }
  const token = new URL(req.url).searchParams.get('token') || input.form?.token || null
  const check = verifyUnsubscribeToken(token, secret)
  if (!check.ok) {
    log.warn('unsubscribe.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature') {
      throw new InvalidSignatureError('Unsubscribe link signature is not valid')
    }
    throw new InvalidInputError('Invalid unsubscribe link')
  }
  const { subscriptions } = input.services.repositories
  const subscription = await subscriptions.get(check.ref)
  if (!subscription) throw new NotFoundError('Subscription not found')
  const productTitle = targetTitle(subscription)
  const already = subscription.status === 'unsubscribed'
  const shop = pageShopOf(config)
  if (req.method === 'GET') {
    return already
      ? donePage(productTitle, true, shop)
      : confirmPage(productTitle, token ?? '', shop)
  }
  if (!already) {
    let from: string | null = null
    const updated = await subscriptions.update(check.ref, (current) => {
      from = current.status === 'unsubscribed' ? null : current.status
      return from === null
        ? current
        : {
            ...current,
            status: 'unsubscribed',
            unsubscribedAt: new Date(input.services.now()).toISOString(),
          }
    })
    if (!updated) throw new NotFoundError('Subscription not found')
    if (from !== null) {
      const { id, productSlug } = updated
      await input.services.audit.record([
        {
          action: 'status',
          record: { type: 'subscription', id, productSlug },
          from,
          to: 'unsubscribed',
        },
      ])
    }
    log.info('unsubscribe.done', {
      subscriptionId: subscription.id,
      productSlug: subscription.productSlug,
    })
  }
  return wantsJson(req) ? {} : donePage(productTitle, already, shop)
}
