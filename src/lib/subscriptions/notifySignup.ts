import { requireTarget, type SignupForm } from '../forms/customerForm.js'
import {
  signupCommunityChatMessage,
  signupConfirmationEmail,
  signupTeamChatMessage,
} from '../messages/signupMessages.js'
import { sendConfirmation } from '../notifiers/confirmationEmail.js'
import { dispatchNotifications, type Delivery } from '../notifiers/dispatch.js'
import { asShown, productUrl } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { newSubscriptionId, signupClaimKey } from '../storage/blobLayout.js'
import {
  onSignupCreated,
  onSignupRepeated,
  newSubscriptionConsent,
  type ComplianceDeps,
  type SignupEmail,
} from '../compliance/signupCompliance.js'
import type { NotifySubscription } from '../storage/records.js'
import { markDemand } from '../demand/demandMarks.js'

export interface SignupOutcome {
  subscriptionId: string
  /** False when the pair already had a pending subscription (its id is answered, nothing is sent). */
  created: boolean
  /** The subscription waits for its double opt-in confirmation (NOTIFY_DOUBLE_OPT_IN). */
  confirmationRequired: boolean
}

/** A subscription of this address and variant that the next restock notification would reach. */
function isLivePending(
  subscription: NotifySubscription,
  email: string,
  variant: string | undefined,
): boolean {
  return (
    subscription.email === email &&
    subscription.variant === variant &&
    subscription.status === 'pending' &&
    subscription.isArchived !== true
  )
}

/**
 * POST /api/notify-signup (D2): one pending subscription per (e-mail, product, variant), decided
 * by an atomic claim (storage/recordClaims.ts); only a newly created subscription sends the restock
 * team-chat message, the community-chat message (product only) and the confirmation e-mail.
 */
export async function notifySignup(
  form: SignupForm,
  services: Pick<Services, 'repositories' | 'notifiers' | 'config' | 'log' | 'context' | 'now'>,
): Promise<SignupOutcome> {
  const { config, log, context, now } = services
  const target = requireTarget(form)
  const { product } = target
  const variant = target.variant?.id
  const { subscriptions, claims } = services.repositories
  const refOf = (id: string) => ({ id, productSlug: product.slug })
  const created = new Map<string, NotifySubscription>()

  const outcome = await claims.claimAndCreate({
    key: signupClaimKey(product.slug, form.email, variant),
    now,
    holderState: async ({ holderId }) => {
      const holder = await subscriptions.get(refOf(holderId))
      if (!holder) return 'missing'
      return isLivePending(holder, form.email, variant) ? 'live' : 'ended'
    },
    adopt: async () => {
      const { records } = await subscriptions.listProduct(product.slug)
      const live = records
        .filter((found) => isLivePending(found, form.email, variant))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      return live[0]?.id ?? null
    },
    newId: () => {
      const at = now()
      // why: the id carries its creation time (§2.1); createdAt matches it
      const id = newSubscriptionId(at)
      created.set(id, {
        id,
        email: form.email,
        productSlug: product.slug,
        ...(variant === undefined ? {} : { variant }),
        status: 'pending',
        createdAt: new Date(at).toISOString(),
        notifiedAt: null,
        ...newSubscriptionConsent(config, at),
      })
      return id
    },
    create: async (id) => {
      const subscription = created.get(id)!
      if (!(await subscriptions.create(refOf(id), subscription))) {
        throw new Error(`Subscription id ${id} is already taken`)
      }
    },
    remove: async (id) => void (await subscriptions.remove(refOf(id))),
  })
  const compliance: ComplianceDeps = {
    repositories: services.repositories,
    config,
    log,
    now,
    clientIp: context.ip,
  }
  if (!outcome.won) {
    log.info('signup.already_pending', { subscriptionId: outcome.holderId })
    const { email, confirmationRequired } = await onSignupRepeated(
      compliance,
      subscriptions,
      outcome.holderId,
      asShown(target),
      form.source,
    )
    const key = `${outcome.holderId}/${now()}`
    dispatchNotifications(context, log, shopperEmails(services, form.email, email, key, now()))
    return { subscriptionId: outcome.holderId, created: false, confirmationRequired }
  }
  const subscription = created.get(outcome.holderId)!
  log.info('signup.created', {
    subscriptionId: subscription.id,
    productSlug: product.slug,
    ...(variant === undefined ? {} : { variant }),
  })
  await markDemand(services, 'signups', subscription.id, { at: now() })
  const shown = asShown(target)
  const email = await onSignupCreated(compliance, subscription, shown, form.source)

  const { notifiers } = services
  const url = productUrl(product.slug, config.storefrontUrl)
  const input = { subscription, product: shown, productUrl: url }
  dispatchNotifications(context, log, [
    () => notifiers.teamchatRestock.send(signupTeamChatMessage(input).slackText),
    () =>
      notifiers.communitychat.send(
        signupCommunityChatMessage({ product: shown, productUrl: url }).discordContent,
      ),
    ...(email.kind === 'welcome'
      ? [
          () =>
            sendConfirmation(
              { to: subscription.email, ...signupConfirmationEmail(input) },
              {
                mailer: notifiers.mailer,
                limits: services.repositories.confirmationLimits,
                idempotencyKey: `signup-confirmation/${subscription.id}`,
                recordId: subscription.id,
                now: new Date(now()),
                log,
              },
            ),
        ]
      : shopperEmails(services, subscription.email, email, subscription.id, now())),
  ])
  return {
    subscriptionId: subscription.id,
    created: true,
    confirmationRequired: subscription.confirmedAt === null,
  }
}

/** The double opt-in link as a delivery (under the hourly confirmation cap), or none. */
function shopperEmails(
  services: Pick<Services, 'notifiers' | 'repositories' | 'log'>,
  to: string,
  email: SignupEmail,
  key: string,
  now: number,
): Delivery[] {
  if (email.kind !== 'link') return []
  return [
    () =>
      sendConfirmation(
        { to, ...email.email },
        {
          mailer: services.notifiers.mailer,
          limits: services.repositories.confirmationLimits,
          // why: `key` makes a retried call send it once
          idempotencyKey: `signup-confirmation-link/${key}`,
          recordId: key.split('/')[0],
          now: new Date(now),
          log: services.log,
        },
      ),
  ]
}
