import type { AppConfig } from '../config.js'
import type { Logger } from '../log.js'
import { signupConfirmationLinkEmail } from '../messages/confirmationMessages.js'
import type { EmailContent } from '../notifiers/resendMailer.js'
import { productUrl, shownProductOf, type CatalogueProduct } from '../productCatalogue.js'
import type { Repositories } from '../storage/repositories.js'
import { noteUnconfirmedSignup } from '../storage/confirmationThrottle.js'
import type { ConsentKind, ConsentSource } from '../storage/consentRepository.js'
import type { NotifySubscription } from '../storage/records.js'
import type { SubscriptionRepository } from '../storage/repositories.js'
import {
  confirmationUrl,
  createConfirmationToken,
  UNCONFIRMED_TTL_MS,
} from './confirmationToken.js'
import { recordConsent } from './recordConsent.js'
import { senderIdentity } from './senderIdentity.js'

/**
 * What a sign-up or reservation does for the law (docs/compliance.md): a consent record, double
 * opt-in, and no confirmation e-mail to a suppressed address.
 */

/**
 * At most one confirmation e-mail per address in this time, unless its link was used since; a
 * sign-up in between gets no e-mail of its own: the last e-mail's link confirms it too.
 */
export const CONFIRMATION_RESEND_INTERVAL_MS = 60_000

export interface ComplianceDeps {
  repositories: Pick<Repositories, 'store' | 'consents' | 'suppressions'>
  config: Pick<
    AppConfig,
    | 'notifyDoubleOptIn'
    | 'unsubscribeSecret'
    | 'siteUrl'
    | 'storefrontUrl'
    | 'shopName'
    | 'shopAddress'
    | 'shopContact'
  >
  log: Logger
  /** The request's clock, ms since the epoch. */
  now: () => number
  /** The client's IP address (`context.ip`), reduced before it is stored. */
  clientIp?: string | null
}

/** What e-mail a sign-up sends the shopper: the usual confirmation, the double opt-in link, or none. */
export type SignupEmail =
  { kind: 'welcome' } | { kind: 'link'; email: EmailContent } | { kind: 'none' }

/** The consent fields a new subscription starts with. */
export function newSubscriptionConsent(
  config: Pick<AppConfig, 'notifyDoubleOptIn'>,
  at: number,
): Pick<NotifySubscription, 'consentedAt' | 'confirmedAt'> {
  return {
    consentedAt: new Date(at).toISOString(),
    ...(config.notifyDoubleOptIn ? { confirmedAt: null } : {}),
  }
}

/** Stores the consent of a new sign-up or reservation. */
export async function recordFormConsent(
  deps: ComplianceDeps,
  input: {
    email: string
    kind: ConsentKind
    recordId: string
    productSlug: string
    source?: ConsentSource
  },
): Promise<void> {
  await recordConsent(deps.repositories.consents, {
    ...input,
    source: input.source ?? 'api',
    clientIp: deps.clientIp,
    at: new Date(deps.now()),
  })
}

/** Whether the address is on the suppression list (no confirmation e-mail goes to it). */
export async function isSuppressed(deps: ComplianceDeps, email: string): Promise<boolean> {
  return (await deps.repositories.suppressions.forAddress(email)) !== null
}

async function linkEmail(
  deps: ComplianceDeps,
  subscription: NotifySubscription,
  product: CatalogueProduct,
): Promise<SignupEmail> {
  if (!deps.config.unsubscribeSecret) {
    deps.log.error('signup.confirmation_unavailable', new Error('UNSUBSCRIBE_SECRET is not set'))
    return { kind: 'none' }
  }
  const { send, pending } = await noteUnconfirmedSignup(
    deps.repositories.store,
    subscription.email,
    subscription,
    {
      now: deps.now(),
      intervalMs: CONFIRMATION_RESEND_INTERVAL_MS,
      keepMs: UNCONFIRMED_TTL_MS,
    },
  )
  if (!send) {
    // why: not dropped: the link e-mailed in the last minute confirms this sign-up too
    deps.log.info('signup.confirmation_joined', { subscriptionId: subscription.id })
    return { kind: 'none' }
  }
  const expiresAt = Date.parse(subscription.createdAt) + UNCONFIRMED_TTL_MS
  const token = createConfirmationToken(subscription, expiresAt, deps.config.unsubscribeSecret)
  // why: this sign-up first, then the others still waiting, oldest first
  const others = pending.filter((item) => item.id !== subscription.id)
  // why: two variants of one product are two lines; the title names the variant
  const products = [product, ...others.map((item) => shownProductOf(item))]
    .filter((found): found is CatalogueProduct => found !== null)
    .filter((found, index, all) => all.findIndex((p) => p.title === found.title) === index)
  return {
    kind: 'link',
    email: signupConfirmationLinkEmail({
      products: products.map((found) => ({
        product: found,
        productUrl: productUrl(found.slug, deps.config.storefrontUrl),
      })),
      confirmationUrl: confirmationUrl(deps.config.siteUrl, token),
      sender: senderIdentity(deps.config),
    }),
  }
}

/** After a new subscription was stored: its consent, and which e-mail goes to the shopper. */
export async function onSignupCreated(
  deps: ComplianceDeps,
  subscription: NotifySubscription,
  product: CatalogueProduct,
  source: ConsentSource | undefined,
): Promise<SignupEmail> {
  await recordFormConsent(deps, {
    email: subscription.email,
    kind: 'restock-notice',
    recordId: subscription.id,
    productSlug: subscription.productSlug,
    source,
  })
  if (await isSuppressed(deps, subscription.email)) {
    deps.log.info('signup.suppressed_address', { subscriptionId: subscription.id })
    return { kind: 'none' }
  }
  if (subscription.confirmedAt === null) return linkEmail(deps, subscription, product)
  return { kind: 'welcome' }
}

/**
 * A sign-up repeated while its subscription is pending: if the subscriber had opted out (staff
 * set it back to pending), this is a new consent: recorded, and `consentedAt` renewed so a send
 * reaches it again. An unconfirmed one gets its link again (at most once a minute), and
 * `confirmationRequired` says whether it still waits for its confirmation.
 */
export async function onSignupRepeated(
  deps: ComplianceDeps,
  subscriptions: SubscriptionRepository,
  holderId: string,
  product: CatalogueProduct,
  source: ConsentSource | undefined,
): Promise<{ email: SignupEmail; confirmationRequired: boolean }> {
  const holder = await subscriptions.get({ id: holderId, productSlug: product.slug })
  if (!holder) return { email: { kind: 'none' }, confirmationRequired: false }
  const confirmationRequired = holder.confirmedAt === null
  const optedOut =
    holder.unsubscribedAt !== undefined &&
    (holder.consentedAt === undefined || holder.consentedAt <= holder.unsubscribedAt)
  if (optedOut) {
    const at = new Date(deps.now()).toISOString()
    await subscriptions.update(holder, (current) => ({ ...current, consentedAt: at }))
    await recordFormConsent(deps, {
      email: holder.email,
      kind: 'restock-notice',
      recordId: holder.id,
      productSlug: holder.productSlug,
      source,
    })
    deps.log.info('signup.consent_renewed', { subscriptionId: holder.id })
  }
  if (!confirmationRequired || (await isSuppressed(deps, holder.email))) {
    return { email: { kind: 'none' }, confirmationRequired }
  }
  return { email: await linkEmail(deps, holder, product), confirmationRequired }
}
