import type { AppConfig } from '../config.js'
import { requireProduct, type SignupForm } from '../forms/customerForm.js'
import type { Logger } from '../log.js'
import {
  signupCommunityChatMessage,
  signupConfirmationEmail,
  signupTeamChatMessage,
} from '../messages/signupMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { createShopNotifiers } from '../notifiers/shopNotifiers.js'
import { productUrl } from '../productCatalogue.js'
import { openStore, RECORDS_STORE } from '../storage/blobStore.js'
import type { NotifySubscription } from '../storage/records.js'
import { openRepositories, type RequestContextLike } from '../storage/repositories.js'
import { claimKey, claimSignup, releaseClaim } from './signupClaims.js'

export interface NotifySignupDeps {
  context: RequestContextLike
  config: AppConfig
  log: Logger
  /** Clock, for tests. Default: `() => new Date()`. */
  now?: () => Date
  /** Least claim settle delay in milliseconds. Default: CLAIM_SETTLE_MS (signupClaims.ts). */
  settleMs?: number
}

export interface SignupOutcome {
  subscriptionId: string
  /** False when the pair already had a pending subscription (its id is answered, nothing is sent). */
  created: boolean
}

/** A subscription that the next restock notification would reach. */
function isLivePending(subscription: NotifySubscription): boolean {
  return subscription.status === 'pending' && subscription.isArchived !== true
}

function newSubscriptionId(now: Date): string {
  return `ntf_${now.getTime()}-${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
}

/**
 * POST /api/notify-signup (D2): one pending subscription per (e-mail, product), decided through
 * the claim protocol of signupClaims.ts; only a newly created subscription sends the restock
 * team-chat message, the community-chat message (product only) and the confirmation e-mail.
 */
export async function notifySignup(
  form: SignupForm,
  { context, config, log, now: clock = () => new Date(), settleMs }: NotifySignupDeps,
): Promise<SignupOutcome> {
  const product = requireProduct(form.productSlug)
  const { subscriptions } = openRepositories(context)
  const store = openStore(RECORDS_STORE, context)
  const key = claimKey(product.slug, form.email)
  // why: the id carries its creation time (`ntf_<ms>-…`); createdAt must match it
  const issued = new Map<string, Date>()

  const decision = await claimSignup({
    store,
    key,
    stateOf: async (id) => {
      const found = await subscriptions.get({ id, productSlug: product.slug })
      if (!found) return 'missing'
      return found.email === form.email && isLivePending(found) ? 'live' : 'inactive'
    },
    findLive: async () => {
      const live = (await subscriptions.listProduct(product.slug))
        .filter((found) => found.email === form.email && isLivePending(found))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      return live[0]?.id ?? null
    },
    newId: () => {
      const at = clock()
      const id = newSubscriptionId(at)
      issued.set(id, at)
      return id
    },
    now: clock,
    settleMs,
  })
  if (!decision.created) {
    log.info('signup.already_pending', { subscriptionId: decision.subscriptionId })
    return { subscriptionId: decision.subscriptionId, created: false }
  }

  const subscription: NotifySubscription = {
    id: decision.subscriptionId,
    email: form.email,
    productSlug: product.slug,
    status: 'pending',
    createdAt: (issued.get(decision.subscriptionId) ?? clock()).toISOString(),
    notifiedAt: null,
  }
  try {
    await subscriptions.save(subscription, subscription)
  } catch (error) {
    // why: otherwise every signup of this pair would answer an id that was never stored
    await releaseClaim(store, key, subscription.id).catch(() => undefined)
    throw error
  }
  log.info('signup.created', { subscriptionId: subscription.id, productSlug: product.slug })

  const notifiers = createShopNotifiers(config, log)
  const url = productUrl(product.slug, config.siteUrl)
  const input = { subscription, product, productUrl: url }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatRestock.send(signupTeamChatMessage(input).slackText),
    () =>
      notifiers.communitychat.send(
        signupCommunityChatMessage({ product, productUrl: url }).discordContent,
      ),
    () =>
      notifiers.mailer.send(
        { to: subscription.email, ...signupConfirmationEmail(input) },
        { idempotencyKey: `signup-confirmation/${subscription.id}` },
      ),
  ])
  return { subscriptionId: subscription.id, created: true }
}
