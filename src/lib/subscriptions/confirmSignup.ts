import { z } from '../../generated/zod.js'
import { mapWithConcurrency } from '../concurrency.js'
import {
  InvalidInputError,
  InvalidSignatureError,
  LinkExpiredError,
  NotConfiguredError,
  NotFoundError,
} from '../errors.js'
import { targetTitle } from '../productCatalogue.js'
import type { AppConfig } from '../config.js'
import { pageShopOf } from '../pages/htmlPage.js'
import type { Services } from '../services.js'
import { pendingConfirmations, settleConfirmations } from '../storage/confirmationThrottle.js'
import type { NotifySubscription } from '../storage/records.js'
import {
  CHOICE_FIELD_PREFIX,
  CHOICES_SHOWN_FIELD,
  confirmationErrorPage,
  confirmSignupPage,
  signupConfirmedPage,
} from './confirmationPages.js'
import { verifyConfirmationToken } from '../compliance/confirmationToken.js'
import { wantsJson } from './unsubscribeRequest.js'

/**
 * The form body of the confirmation page's button: the token, and the ticked sign-ups
 * (`signup-<n>` = `{productSlug}/{id}`) with `choices` saying the page showed them.
 */
export const confirmForm = z.looseObject({ token: z.string().optional() })

/** A failure as the Japanese page, unless the caller asked for JSON. */
export function confirmErrorPage(
  req: Request,
  status: number,
  config: AppConfig | null,
): Response | null {
  return wantsJson(req) ? null : confirmationErrorPage(status, pageShopOf(config))
}

export interface ConfirmInput {
  req: Request
  form: Record<string, unknown> | undefined
  services: Pick<Services, 'repositories' | 'config' | 'log' | 'now'>
}

const titleOf = (subscription: NotifySubscription) => targetTitle(subscription)
const choiceValue = (subscription: NotifySubscription) =>
  `${subscription.productSlug}/${subscription.id}`

/**
 * GET/POST /api/notify-confirm (double opt-in, docs/compliance.md). The link names one sign-up;
 * it confirms every sign-up of the same address that waits for confirmation (the address's list,
 * storage/confirmationThrottle.ts), so one e-mail serves a shopper who signed up for several
 * products. GET shows them, each ticked, and changes nothing (mail scanners follow links); POST
 * sets `confirmedAt` on the ticked ones (all of them when the page's choices were not sent:
 * a JSON or one-click caller), each by compare-and-swap, once. An expired link answers 410, a
 * forged one 403. JSON answers say whether the link's own sign-up was confirmed before.
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
  const formToken = typeof input.form?.token === 'string' ? input.form.token : null
  const token = new URL(req.url).searchParams.get('token') || formToken || null
  const check = verifyConfirmationToken(token, secret, now())
  if (!check.ok) {
    log.warn('confirm.rejected', { reason: token ? check.reason : 'missing token' })
    if (check.reason === 'bad-signature')
      throw new InvalidSignatureError('Confirmation link signature is not valid')
    if (check.reason === 'expired') throw new LinkExpiredError('Confirmation link has expired')
    throw new InvalidInputError('Invalid confirmation link')
  }
  const { subscriptions, store } = input.services.repositories
  const own = await subscriptions.get(check.ref)
  if (!own) throw new NotFoundError('Subscription not found')
  const waiting = await waitingSignups(input.services.repositories, own)
  const shop = pageShopOf(config)
  const choicesPage = () =>
    confirmSignupPage(
      waiting.map((subscription) => ({
        value: choiceValue(subscription),
        productTitle: titleOf(subscription),
      })),
      token ?? '',
      shop,
    )
  if (req.method === 'GET') {
    return waiting.length === 0 ? signupConfirmedPage([titleOf(own)], true, shop) : choicesPage()
  }
  const ticked = new Set(
    Object.entries(input.form ?? {})
      .filter(([field]) => field.startsWith(CHOICE_FIELD_PREFIX))
      .map(([, value]) => String(value)),
  )
  const chosen =
    input.form?.[CHOICES_SHOWN_FIELD] === undefined
      ? waiting
      : waiting.filter((subscription) => ticked.has(choiceValue(subscription)))
  const at = new Date(now()).toISOString()
  const confirmed = await mapWithConcurrency(chosen, 5, (subscription) =>
    subscriptions.update(subscription, (current) =>
      current.confirmedAt === null ? { ...current, confirmedAt: at } : current,
    ),
  )
  if (chosen.length > 0) {
    await settleConfirmations(
      store,
      own.email,
      chosen.map((subscription) => subscription.id),
      Date.parse(at),
    )
    log.info('confirm.done', { subscriptionId: own.id, confirmed: chosen.length })
  }
  const alreadyConfirmed = own.confirmedAt !== null
  if (wantsJson(req)) return { alreadyConfirmed }
  if (waiting.length === 0) return signupConfirmedPage([titleOf(own)], true, shop)
  if (chosen.length === 0) return choicesPage()
  const titles = confirmed.filter((s): s is NotifySubscription => s !== null).map(titleOf)
  return signupConfirmedPage(titles, false, shop)
}

/**
 * The link's own sign-up and the address's others that still wait for confirmation, each read
 * again (a deleted one, or one of another address, is left out); the link's own first.
 */
async function waitingSignups(
  repositories: Pick<Services['repositories'], 'subscriptions' | 'store'>,
  own: NotifySubscription,
): Promise<NotifySubscription[]> {
  const listed = (await pendingConfirmations(repositories.store, own.email)).filter(
    (item) => item.id !== own.id,
  )
  const others = await mapWithConcurrency(listed, 5, (item) => repositories.subscriptions.get(item))
  return [own, ...others].filter(
    (subscription): subscription is NotifySubscription =>
      subscription !== null &&
      subscription.email === own.email &&
      subscription.confirmedAt === null,
  )
}
