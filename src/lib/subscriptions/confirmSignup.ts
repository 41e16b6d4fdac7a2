import {
  InvalidInputError,
  InvalidSignatureError,
  LinkExpiredError,
  NotConfiguredError,
  NotFoundError,
} from '../errors.js'
import { findProduct } from '../productCatalogue.js'
import type { Services } from '../services.js'
import {
  confirmationErrorPage,
  confirmSignupPage,
  signupConfirmedPage,
} from './confirmationPages.js'
import { verifyConfirmationToken } from '../compliance/confirmationToken.js'
import { unsubscribeForm, wantsJson } from './unsubscribeRequest.js'

/** The form body of the confirmation page's button (the same shape as the unsubscribe form). */
export const confirmForm = unsubscribeForm

/** A failure as the Japanese page, unless the caller asked for JSON. */
export function confirmErrorPage(req: Request, status: number): Response | null {
  return wantsJson(req) ? null : confirmationErrorPage(status)
}

export interface ConfirmInput {
  req: Request
  form: { token?: string } | undefined
  services: Pick<Services, 'repositories' | 'config' | 'log' | 'now'>
}

/**
 * GET/POST /api/notify-confirm (double opt-in, docs/compliance.md). GET shows a page with a
 * button and changes nothing (mail scanners follow links); POST sets `confirmedAt` (compare-and-
 * swap; once). An expired link answers 410, a forged one 403.
 */
export async function answerConfirm(
  input: ConfirmInput,
): Promise<Response | { alreadyConfirmed: boolean }> {
  const { req } = input
  const { config, log } = input.services
  const { now } = input.services
  const secret = config.unsubscribeSecret
  if (!secret) {
    log.error('confirm.misconfigured', new Error('UNSUBSCRIBE_SECRET is not set'))
    throw new NotConfiguredError('Confirmation is not available right now')
  }
  const token = new URL(req.url).searchParams.get('token') || input.form?.token || null
  const check = verifyConfirmationToken(token, secret, now())
  if (!check.ok) {
    log.warn('confirm.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature')
      throw new InvalidSignatureError('Confirmation link signature is not valid')
    if (check.reason === 'expired') throw new LinkExpiredError('Confirmation link has expired')
    throw new InvalidInputError('Invalid confirmation link')
  }
  const { subscriptions } = input.services.repositories
  const subscription = await subscriptions.get(check.ref)
  if (!subscription) throw new NotFoundError('Subscription not found')
  const productTitle = findProduct(subscription.productSlug)?.title ?? subscription.productSlug
  const already = subscription.confirmedAt !== null
  if (req.method === 'GET') {
    return already
      ? signupConfirmedPage(productTitle, true)
      : confirmSignupPage(productTitle, token ?? '')
  }
  if (!already) {
    const at = new Date(now()).toISOString()
    const updated = await subscriptions.update(check.ref, (current) =>
      current.confirmedAt === null ? { ...current, confirmedAt: at } : current,
    )
    if (!updated) throw new NotFoundError('Subscription not found')
    log.info('confirm.done', {
      subscriptionId: subscription.id,
      productSlug: subscription.productSlug,
    })
  }
  return wantsJson(req) ? { alreadyConfirmed: already } : signupConfirmedPage(productTitle, already)
}
