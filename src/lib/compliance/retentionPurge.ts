import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import type { ConsentRecord } from '../storage/consentRepository.js'
import type { NotifySubscription } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'
import { UNCONFIRMED_TTL_MS } from './confirmationToken.js'
import { signupClaimKey } from '../storage/blobLayout.js'
import { dropPendingConfirmation } from '../storage/confirmationThrottle.js'
import { ExportJobStore } from '../storage/exportJobStore.js'
import { dropLegacyListing } from '../storage/legacyListing.js'

/**
 * The scheduled retention purge (docs/compliance.md, "Retention"):
 * - a consent record goes one month after the last e-mail sent on it (its subscription's
 *   `notifiedAt`) or after its unsubscribe (特定電子メール法 Art. 3 asks for one month); while the
 *   subscription is pending, or its reservation exists, it stays; one whose record was deleted
 *   goes RETENTION_DAYS after it was given (when it was last used is no longer known);
 * - a subscription notified or unsubscribed more than RETENTION_DAYS ago goes, with its claim;
 * - an unconfirmed double opt-in sign-up goes 7 days after it was made, with its consent and its
 *   place in its address's list of sign-ups waiting for confirmation;
 * - a stock or order webhook event's replay mark goes EVENT_RETENTION_DAYS after it arrived;
 * - a CSV export of a list (a copy of records) goes EXPORT_RETENTION_MS after it was made;
 * - an `Idempotency-Key` mark goes once its day and the next have passed (storage/idempotencyKeys.ts);
 * - the mark of a spent LINE Login state goes SPENT_LOGIN_STATE_KEPT_MS (a day, storage/lineContacts.ts) after it was spent;
 * - the listing cache of older deploys (`snapshots/`, `journal/`) goes, the journal as far as
 *   LEGACY_LISTING_BUDGET_MS of the run allows (the rest the next day).
 * Reservations stay (the shop's records) unless erased on request.
 */

const DAY_MS = 24 * 60 * 60_000
/** How long a CSV export is kept: the dashboard saves the file the moment it is done. */
export const EXPORT_RETENTION_MS = DAY_MS
// why: the scheduled function has 30 s; the records above come first
const LEGACY_LISTING_BUDGET_MS = 15_000

export interface PurgeDeps {
  repositories: Pick<
    Repositories,
    | 'reservations'
    | 'subscriptions'
    | 'consents'
    | 'store'
    | 'stockEvents'
    | 'orderEvents'
    | 'idempotencyKeys'
    | 'lineContacts'
  >
  log: Logger
  /** `RETENTION_DAYS`. */
  retentionDays: number
  /** The run's clock, ms since the epoch. */
  now: () => number
  /** Where each subscription deleted is recorded (the audit trail). Default: nowhere. */
  audit?: AuditRecorder
}

export interface PurgeSummary {
  subscriptions: number
  unconfirmed: number
  consents: number
  /** Stock webhook replay marks removed. */
  stockEvents: number
  /** Order webhook replay marks removed. */
  orderEvents: number
  /** CSV exports removed. */
  exports: number
  /** `Idempotency-Key` marks removed. */
  idempotencyKeys: number
  /** Marks of spent LINE Login states removed. */
  lineLoginStates: number
  /** Blobs of the listing cache of older deploys removed. */
  legacyListing: number
}

/** `iso` plus one calendar month (UTC), in ms. */
function oneMonthAfter(iso: string): number {
  const date = new Date(iso)
  date.setUTCMonth(date.getUTCMonth() + 1)
  return date.getTime()
}

/** When the subscription's last e-mail went or it was opted out of; null while it may still be sent to. */
function endOf(subscription: NotifySubscription): string | null {
  if (subscription.status === 'pending') return null
  const times = [subscription.notifiedAt, subscription.unsubscribedAt].filter(
    (time): time is string => typeof time === 'string',
  )
  return times.sort().at(-1) ?? subscription.createdAt
}

export function isExpiredUnconfirmed(subscription: NotifySubscription, now: number): boolean {
  return (
    subscription.confirmedAt === null &&
    now - Date.parse(subscription.createdAt) > UNCONFIRMED_TTL_MS
  )
}

export async function purgeExpiredData(deps: PurgeDeps): Promise<PurgeSummary> {
  const now = deps.now()
  const retentionMs = deps.retentionDays * DAY_MS
  const [subscriptions, reservations, consents] = await Promise.all([
    deps.repositories.subscriptions.list(),
    deps.repositories.reservations.list(),
    deps.repositories.consents.list(),
  ])
  const subscriptionsById = new Map(subscriptions.records.map((s) => [s.id, s]))
  const reservationIds = new Set(reservations.records.map((r) => r.id))

  const unconfirmed = subscriptions.records.filter((s) => isExpiredUnconfirmed(s, now))
  const old = subscriptions.records.filter((s) => {
    const end = endOf(s)
    return end !== null && !unconfirmed.includes(s) && now - Date.parse(end) > retentionMs
  })
  const expiredIds = new Set(unconfirmed.map((s) => s.id))
  const consentGoes = (consent: ConsentRecord): boolean => {
    if (consent.kind === 'reservation') {
      return (
        !reservationIds.has(consent.recordId) && now - Date.parse(consent.createdAt) > retentionMs
      )
    }
    if (expiredIds.has(consent.recordId)) return true
    const subscription = subscriptionsById.get(consent.recordId)
    if (!subscription) return now - Date.parse(consent.createdAt) > retentionMs
    const end = endOf(subscription)
    return end !== null && now > oneMonthAfter(end)
  }
  const goneConsents = consents.records.filter(consentGoes)

  await mapWithConcurrency(goneConsents, 10, (consent) =>
    deps.repositories.consents.remove(consent),
  )
  await mapWithConcurrency([...unconfirmed, ...old], 10, async (subscription) => {
    // why: a record changed since it was judged (signed up again, confirmed) is judged next time
    const current = await deps.repositories.subscriptions.get(subscription)
    if (
      !current ||
      current.status !== subscription.status ||
      current.confirmedAt !== subscription.confirmedAt ||
      current.notifiedAt !== subscription.notifiedAt
    ) {
      return
    }
    await deps.repositories.subscriptions.remove(subscription)
    const { id, productSlug } = subscription
    await deps.audit?.record([
      { action: 'delete', record: { type: 'subscription', id, productSlug }, from: null, to: null },
    ])
    if (subscription.confirmedAt === null) {
      await dropPendingConfirmation(deps.repositories.store, subscription.email, subscription.id)
    }
    const claim = signupClaimKey(subscription.productSlug, subscription.email, subscription.variant)
    const held = await deps.repositories.store.get(claim, { type: 'json' })
    if ((held as { holderId?: string } | null)?.holderId === subscription.id) {
      await deps.repositories.store.delete(claim)
    }
  })
  const stockEvents = await deps.repositories.stockEvents.prune(now)
  const orderEvents = await deps.repositories.orderEvents.prune(now)
  const store = deps.repositories.store
  const exports = await new ExportJobStore(store).dropOlderThan(now - EXPORT_RETENTION_MS, now)
  const idempotencyKeys = await deps.repositories.idempotencyKeys.prune(now)
  const lineLoginStates = await deps.repositories.lineContacts.pruneLoginStates(now)
  const legacyUntil = now + LEGACY_LISTING_BUDGET_MS
  const legacyListing = await dropLegacyListing(store, () => deps.now() < legacyUntil)
  const summary = {
    subscriptions: old.length,
    unconfirmed: unconfirmed.length,
    consents: goneConsents.length,
    stockEvents,
    orderEvents,
    exports,
    idempotencyKeys,
    lineLoginStates,
    legacyListing,
  }
  deps.log.info('retention.purged', { ...summary, retentionDays: deps.retentionDays })
  return summary
}
