import { recordConsent } from '../compliance/recordConsent.js'
import { markDemand } from '../demand/demandMarks.js'
import { requireTarget } from '../forms/customerForm.js'
import { signupCommunityChatMessage, signupTeamChatMessage } from '../messages/signupMessages.js'
import { dispatchNotifications } from '../notifiers/dispatch.js'
import { asShown, productUrl, type CatalogueTarget } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { lineSignupClaimKey, newSubscriptionId } from '../storage/blobLayout.js'
import { lineUserHash } from '../storage/lineContacts.js'
import type { NotifySubscription } from '../storage/records.js'
import type { LoginTarget } from './loginState.js'

/**
 * The sign-up a verified LINE Login makes: one pending LINE subscription per (LINE user, product,
 * variant), decided by an atomic claim like an e-mail sign-up's; its consent recorded with the
 * wording shown beside the button (`restock-line`), filed under the user's `lineUserHash`; the
 * user's contact record (friend or not, their subscriptions) updated by compare-and-swap. A new
 * sign-up sends the team-chat message (no LINE id: it says 「受け取り: LINE」) and the
 * community-chat message (product only).
 */

export interface LineSignupInput {
  target: LoginTarget
  lineUserId: string
  /** Whether the user has the shop's official account as a friend (null: LINE did not say). */
  friend: boolean | null
}

export interface LineSignupOutcome {
  subscriptionId: string
  /** False when the user already waited for this product (nothing new was stored). */
  created: boolean
  friend: boolean | null
  shown: CatalogueTarget
}

function isLivePending(
  subscription: NotifySubscription,
  lineUserId: string,
  variant: string | undefined,
): boolean {
  return (
    subscription.channel === 'line' &&
    subscription.lineUserId === lineUserId &&
    subscription.variant === variant &&
    subscription.status === 'pending' &&
    subscription.isArchived !== true
  )
}

export async function lineSignup(
  input: LineSignupInput,
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now'>,
): Promise<LineSignupOutcome> {
  const { config, log, context, now } = services
  const target = requireTarget(input.target)
  const { product } = target
  const variant = target.variant?.id
  const { subscriptions, claims, lineContacts } = services.repositories
  const hash = lineUserHash(input.lineUserId)
  const refOf = (id: string) => ({ id, productSlug: product.slug })
  const created = new Map<string, NotifySubscription>()

  const outcome = await claims.claimAndCreate({
    key: lineSignupClaimKey(product.slug, hash, variant),
    now,
    holderState: async ({ holderId }) => {
      const holder = await subscriptions.get(refOf(holderId))
      if (!holder) return 'missing'
      return isLivePending(holder, input.lineUserId, variant) ? 'live' : 'ended'
    },
    newId: () => {
      const at = now()
      const id = newSubscriptionId(at)
      const iso = new Date(at).toISOString()
      created.set(id, {
        id,
        email: '',
        channel: 'line',
        lineUserId: input.lineUserId,
        productSlug: product.slug,
        ...(variant === undefined ? {} : { variant }),
        status: 'pending',
        createdAt: iso,
        notifiedAt: null,
        consentedAt: iso,
      })
      return id
    },
    create: async (id) => {
      if (!(await subscriptions.create(refOf(id), created.get(id)!))) {
        throw new Error(`Subscription id ${id} is already taken`)
      }
    },
    remove: async (id) => void (await subscriptions.remove(refOf(id))),
  })

  const at = new Date(now()).toISOString()
  await lineContacts.change(hash, (current) => {
    const known = current?.subscriptions ?? []
    const mine = known.some((ref) => ref.id === outcome.holderId)
    return {
      hash,
      friend: input.friend ?? current?.friend ?? null,
      friendSeenAt: input.friend === null ? (current?.friendSeenAt ?? null) : at,
      subscriptions: mine ? known : [...known, refOf(outcome.holderId)],
      updatedAt: at,
    }
  })

  if (!outcome.won) {
    log.info('line.signup.already_pending', { subscriptionId: outcome.holderId })
    return { subscriptionId: outcome.holderId, created: false, friend: input.friend, shown: target }
  }
  const subscription = created.get(outcome.holderId)!
  await recordConsent(services.repositories.consents, {
    email: '',
    lineUserId: input.lineUserId,
    kind: 'restock-line',
    recordId: subscription.id,
    productSlug: product.slug,
    source: 'widget',
    clientIp: context.ip,
    at: new Date(now()),
  })
  log.info('line.signup.created', {
    subscriptionId: subscription.id,
    productSlug: product.slug,
    ...(variant === undefined ? {} : { variant }),
    friend: input.friend,
  })
  await markDemand(services, 'signups', subscription.id, { at: now() })
  const shown = asShown(target)
  const url = productUrl(product.slug, config.storefrontUrl)
  const { notifiers } = services
  dispatchNotifications(context, log, [
    () =>
      notifiers.teamchatRestock.send(
        signupTeamChatMessage({ subscription, product: shown, productUrl: url }).slackText,
      ),
    () =>
      notifiers.communitychat.send(
        signupCommunityChatMessage({ product: shown, productUrl: url }).discordContent,
      ),
  ])
  return { subscriptionId: subscription.id, created: true, friend: input.friend, shown: target }
}
