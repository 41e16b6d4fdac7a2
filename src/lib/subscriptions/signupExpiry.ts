import type { AuditRecorder } from '../audit/auditTrail.js'
import { senderIdentity, SenderIdentityMissingError } from '../compliance/senderIdentity.js'
import type { AppConfig } from '../config.js'
import { isWaiting, suppressedHashes } from '../compliance/restockRecipients.js'
import { createKeepToken, KEEP_ANSWER_MS, keepUrl } from '../compliance/keepToken.js'
import { createUnsubscribeToken, unsubscribeUrl } from '../compliance/unsubscribeToken.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import { renderKeepEmail } from '../messages/keepMessages.js'
import { createResendMailer, type Mailer } from '../notifiers/resendMailer.js'
import { productUrl, targetTitle } from '../productCatalogue.js'
import { sendableAt, type QuietHours } from '../quietHours.js'
import type { SenderIdentity } from '../storage/deliveryJobStore.js'
import type { NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { endSubscriptions } from './endSubscriptions.js'

/**
 * Sign-ups that do not go stale (docs/decisions-local.md, "Long-waiting sign-ups"), once a day
 * (netlify/functions/signup-expiry.ts) on the clock it is given:
 * - a pending sign-up that is waiting (the waiting rule: it would get a restock e-mail) and has
 *   waited SIGNUP_EXPIRY_DAYS since it was made, consented to again or kept, gets one e-mail
 *   「引き続き入荷のお知らせを希望されますか」 with a signed keep link (`keepAskedAt`);
 * - one whose question stays unanswered KEEP_ANSWER_MS (14 days) ends: `unsubscribed`,
 *   `unsubscribeReason: "expired"`; it is never e-mailed again and the retention purge deletes
 *   it RETENTION_DAYS later, like any unsubscribed sign-up.
 * Each change is a compare-and-swap that re-checks the rule on the stored record, so a run again
 * (or two at once) asks nobody twice and ends nobody twice; the e-mail of a question carries a
 * Resend idempotency key of that question. Inside the quiet hours no question is sent (the next
 * run outside them sends it); without an e-mail provider nobody is asked, so nobody ends.
 */

const DAY_MS = 24 * 60 * 60_000

export interface SignupExpiryDeps {
  repositories: Pick<Repositories, 'subscriptions' | 'suppressions'>
  /** Where each sign-up ended is recorded (actor: signup-expiry). */
  audit: AuditRecorder
  log: Logger
  /** The run's clock, ms since the epoch. */
  now: () => number
  /** `SIGNUP_EXPIRY_DAYS`; 0: nobody is asked and nobody ends. */
  expiryDays: number
  quietHours: QuietHours | null
  /** How the questions are e-mailed; null (no provider): nobody is asked. */
  mail: KeepMail | null
}

/** What the question e-mail needs. */
export interface KeepMail {
  mailer: Pick<Mailer, 'send'>
  siteUrl: string
  storefrontUrl: string
  /** `UNSUBSCRIBE_SECRET`: signs the keep and the unsubscribe links. */
  secret: string
  sender: SenderIdentity
}

/**
 * How the questions go out under `config`: Resend, or null when restock e-mail cannot be
 * delivered (no provider, no UNSUBSCRIBE_SECRET) or, in production, the sender's details the law
 * asks for are missing (logged with how to fix it).
 */
export function keepMailOf(config: AppConfig, log: Logger): KeepMail | null {
  const delivery = config.emailDelivery
  if (!delivery.ready) return null
  const sender = senderIdentity(config)
  if (sender.missing.length > 0 && config.deployContext === 'production') {
    log.error('signup.expiry.misconfigured', new SenderIdentityMissingError(sender.missing))
    return null
  }
  return {
    mailer: createResendMailer({
      apiKey: delivery.apiKey,
      from: delivery.from,
      timeoutMs: config.outboundTimeoutMs,
      log,
    }),
    siteUrl: config.siteUrl,
    storefrontUrl: config.storefrontUrl,
    secret: delivery.unsubscribeSecret,
    sender,
  }
}

export interface SignupExpirySummary {
  /** Sign-ups e-mailed the question by this run. */
  asked: number
  /** Sign-ups whose question went unanswered, ended by this run. */
  expired: number
  /** Questions due but not sent: the quiet hours, or the provider refused (the next run asks). */
  deferred: number
}

/** When the sign-up last said it wants the e-mail: made, consented to again, or kept. */
function renewedAt(subscription: NotifySubscription): string {
  return [subscription.createdAt, subscription.consentedAt ?? '', subscription.keptAt ?? '']
    .sort()
    .at(-1) as string
}

/** The question asked and not answered since, or null. */
function openQuestion(subscription: NotifySubscription): string | null {
  const asked = subscription.keepAskedAt
  return asked !== undefined && renewedAt(subscription) < asked ? asked : null
}

type Due = 'ask' | 'expire' | null

/** What is due for the sign-up at `now`. */
function dueFor(subscription: NotifySubscription, now: number, expiryDays: number): Due {
  if (subscription.status !== 'pending' || subscription.isArchived) return null
  const asked = openQuestion(subscription)
  if (asked !== null) return now >= Date.parse(asked) + KEEP_ANSWER_MS ? 'expire' : null
  return now - Date.parse(renewedAt(subscription)) >= expiryDays * DAY_MS ? 'ask' : null
}

export async function runSignupExpiry(deps: SignupExpiryDeps): Promise<SignupExpirySummary> {
  const summary: SignupExpirySummary = { asked: 0, expired: 0, deferred: 0 }
  if (deps.expiryDays <= 0) return summary
  const now = deps.now()
  const { subscriptions, suppressions } = deps.repositories
  const [listing, suppressed] = await Promise.all([
    subscriptions.list(),
    suppressedHashes(suppressions),
  ])
  const expiring = listing.records.filter((s) => dueFor(s, now, deps.expiryDays) === 'expire')
  const asking = listing.records.filter(
    (s) => dueFor(s, now, deps.expiryDays) === 'ask' && isWaiting(s, suppressed),
  )
  summary.expired = await expire(expiring, now, deps)
  if (asking.length > 0 && (!deps.mail || sendableAt(deps.quietHours, now) > now)) {
    summary.deferred = deps.mail ? asking.length : 0
  } else if (deps.mail) {
    const mail = deps.mail
    const outcomes = await mapWithConcurrency(asking, 2, (s) => ask(s, now, mail, deps))
    summary.asked = outcomes.filter((outcome) => outcome === 'asked').length
    summary.deferred = outcomes.filter((outcome) => outcome === 'deferred').length
  }
  deps.log.info('signup.expiry', { ...summary })
  return summary
}

/** Ends the unanswered sign-ups; answers how many this run ended. */
async function expire(
  due: readonly NotifySubscription[],
  now: number,
  deps: SignupExpiryDeps,
): Promise<number> {
  const ended = await endSubscriptions(due, {
    subscriptions: deps.repositories.subscriptions,
    audit: deps.audit,
    reason: 'expired',
    at: new Date(now).toISOString(),
    stillEnds: (current) => dueFor(current, now, deps.expiryDays) === 'expire',
  })
  return ended.length
}

/**
 * Records the question (`keepAskedAt`, compare-and-swap), then e-mails it. When the provider
 * refuses, the question is taken back (the next run asks again), so nobody ends unasked.
 */
async function ask(
  subscription: NotifySubscription,
  now: number,
  mail: KeepMail,
  deps: SignupExpiryDeps,
): Promise<'asked' | 'deferred' | 'changed'> {
  const askedAt = new Date(now).toISOString()
  const { subscriptions } = deps.repositories
  const stored = await subscriptions.update(subscription, (current) =>
    dueFor(current, now, deps.expiryDays) === 'ask'
      ? { ...current, keepAskedAt: askedAt }
      : current,
  )
  if (stored?.keepAskedAt !== askedAt) return 'changed'
  const ref = { id: stored.id, productSlug: stored.productSlug }
  const unsubscribe = unsubscribeUrl(mail.siteUrl, createUnsubscribeToken(ref, mail.secret))
  const rendered = renderKeepEmail({
    productTitle: targetTitle(stored),
    productUrl: productUrl(stored.productSlug, mail.storefrontUrl),
    signedUpAt: renewedAt(stored),
    keepUrl: keepUrl(mail.siteUrl, createKeepToken(ref, askedAt, mail.secret)),
    endsAt: new Date(now + KEEP_ANSWER_MS).toISOString(),
    unsubscribeUrl: unsubscribe,
    sender: mail.sender,
  })
  const result = await mail.mailer.send(
    {
      to: stored.email,
      ...rendered,
      headers: {
        'List-Unsubscribe': `<${unsubscribe}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
    { idempotencyKey: `keep/${stored.id}/${askedAt}` },
  )
  if (result.outcome === 'sent' || result.outcome === 'logged') return 'asked'
  deps.log.warn('signup.expiry.ask_failed', { subscriptionId: stored.id, error: result.error })
  await subscriptions.update(stored, (current) => {
    if (current.keepAskedAt !== askedAt) return current
    const next = { ...current }
    delete next.keepAskedAt
    return next
  })
  return 'deferred'
}
