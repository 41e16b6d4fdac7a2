import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import type { ConsentRecord } from '../storage/consentRepository.js'
import { confirmationThrottleKey } from '../storage/confirmationThrottle.js'
import { reservationClaimKey, signupClaimKey } from '../storage/blobLayout.js'
import { emailHash, normaliseEmail } from '../storage/emailHash.js'
import { dropLegacyListing } from '../storage/legacyListing.js'
import {
  dropListExports,
  eraseFromDeliveries,
  refoldIndexes,
} from '../storage/personalDataBlobs.js'
import type { NotificationHistory, NotifySubscription, Reservation } from '../storage/records.js'
import type { BuyerAttribution } from '../storage/orderAttributions.js'
import type { Repositories } from '../storage/repositories.js'

/**
 * The person's rights under APPI Art. 33–35 (docs/compliance.md): everything stored about one
 * e-mail address, answered (`exportPerson`) or removed (`erasePerson`). Neither logs the address.
 */

export interface PersonalDataDeps {
  /** Records, consents, suppressions, and the store itself (claims, throttles, snapshots). */
  repositories: Pick<
    Repositories,
    | 'reservations'
    | 'subscriptions'
    | 'history'
    | 'consents'
    | 'suppressions'
    | 'confirmationLimits'
    | 'indexes'
    | 'store'
    | 'orderAttributions'
    | 'lineContacts'
  >
  log: Logger
  /**
   * Where the request is recorded: one `person` entry named by the request id (never the
   * address) and one entry per reservation and subscription it read or removed (their ids only).
   */
  audit: AuditRecorder
  /** Waits for the background work of the repositories above (snapshot saves) to finish. */
  settle: () => Promise<void>
}

/** A consent record with the text of the wording it names. */
export type ExportedConsent = ConsentRecord & { wordingText: string | null }

export interface PersonExport {
  email: string
  reservations: Reservation[]
  subscriptions: NotifySubscription[]
  consents: ExportedConsent[]
  notices: { notificationId: string; productSlug: string; sentAt: string }[]
  /** Orders counted for a restock notice, linked to the address by its hash. */
  orders: { orderId: string; productSlug: string; notificationId: string }[]
  suppressed: boolean
}

export interface ErasureSummary {
  reservations: number
  subscriptions: number
  consents: number
  notices: number
  claims: number
  deliveries: number
  /** Links of the address's hash to orders counted for notices, removed (the counts stay). */
  orders: number
  suppressionKept: boolean
}

interface Found {
  address: string
  reservations: Reservation[]
  subscriptions: NotifySubscription[]
  consents: ConsentRecord[]
  /** Histories that name the address as a recipient or a failed recipient. */
  histories: NotificationHistory[]
}

const byCreatedAt = <T extends { createdAt: string }>(a: T, b: T) =>
  a.createdAt.localeCompare(b.createdAt)

function namesAddress(history: NotificationHistory, address: string): boolean {
  return (
    history.recipientEmails.some((email) => normaliseEmail(email) === address) ||
    (history.failedRecipients ?? []).some(({ email }) => normaliseEmail(email) === address)
  )
}

async function find(email: string, deps: PersonalDataDeps): Promise<Found> {
  const address = normaliseEmail(email)
  const mine = (record: { email: string }) => normaliseEmail(record.email) === address
  const [reservations, subscriptions, histories, consents] = await Promise.all([
    deps.repositories.reservations.list(),
    deps.repositories.subscriptions.list(),
    deps.repositories.history.list(),
    deps.repositories.consents.listForAddress(emailHash(address)),
  ])
  return {
    address,
    reservations: reservations.records.filter(mine).sort(byCreatedAt),
    subscriptions: subscriptions.records.filter(mine).sort(byCreatedAt),
    consents: consents.records.sort(byCreatedAt),
    histories: histories.records
      .filter((history) => namesAddress(history, address))
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
  }
}

/** The audit entries of an export or erase: ids and counts, nothing that names the person. */
async function recordRequest(
  action: 'export' | 'erase',
  found: Found,
  deps: PersonalDataDeps,
): Promise<void> {
  const records = [
    ...found.reservations.map((r) => ({ type: 'reservation' as const, ...r })),
    ...found.subscriptions.map((s) => ({ type: 'subscription' as const, ...s })),
  ]
  await deps.audit.record([
    {
      action,
      record: { type: 'person', id: deps.log.requestId, productSlug: null },
      from: null,
      to: String(records.length),
    },
    ...records.map(({ type, id, productSlug }) => ({
      action,
      record: { type, id, productSlug },
      from: null,
      to: null,
    })),
  ])
}

/** POST /api/admin/people/export: everything stored about the address. */
export async function exportPerson(email: string, deps: PersonalDataDeps): Promise<PersonExport> {
  const found = await find(email, deps)
  const wordings = new Map<string, string | null>()
  for (const consent of found.consents) {
    if (!wordings.has(consent.wordingVersion)) {
      wordings.set(
        consent.wordingVersion,
        (await deps.repositories.consents.wording(consent.wordingVersion))?.text ?? null,
      )
    }
  }
  const suppressed = (await deps.repositories.suppressions.forAddress(found.address)) !== null
  const orders = await deps.repositories.orderAttributions.ofBuyer(emailHash(found.address))
  await recordRequest('export', found, deps)
  deps.log.info('people.exported', {
    reservations: found.reservations.length,
    subscriptions: found.subscriptions.length,
    consents: found.consents.length,
    notices: found.histories.length,
    orders: orders.length,
    suppressed,
  })
  return {
    email: found.address,
    reservations: found.reservations,
    subscriptions: found.subscriptions,
    consents: found.consents.map((consent) => ({
      ...consent,
      wordingText: wordings.get(consent.wordingVersion) ?? null,
    })),
    notices: found.histories
      .filter((history) => history.recipientEmails.some((e) => normaliseEmail(e) === found.address))
      .map((history) => ({
        notificationId: history.id,
        productSlug: history.productSlug,
        sentAt: history.completedAt ?? history.timestamp,
      })),
    orders: orders.map(({ orderId, productSlug, noticeId }: BuyerAttribution) => ({
      orderId,
      productSlug,
      notificationId: noticeId,
    })),
    suppressed,
  }
}

/** The history without the address; each removed entry counted in `erasedRecipientCount`. */
function withoutAddress(history: NotificationHistory, address: string): NotificationHistory {
  const keep = (email: string) => normaliseEmail(email) !== address
  const recipientEmails = history.recipientEmails.filter(keep)
  const failedRecipients = (history.failedRecipients ?? []).filter(({ email }) => keep(email))
  const removed = history.recipientEmails.length - recipientEmails.length
  if (removed === 0 && failedRecipients.length === (history.failedRecipients ?? []).length) {
    return history
  }
  return {
    ...history,
    recipientEmails,
    failedRecipients,
    erasedRecipientCount: (history.erasedRecipientCount ?? 0) + Math.max(removed, 1),
  }
}

/**
 * POST /api/admin/people/erase: removes the address everywhere: reservations and subscriptions
 * (archived too) with their claims, consent records, the confirmation throttle, its entries in
 * notification histories (replaced by a count) and delivery snapshots, the links of its orders
 * counted for restock notices (the counts stay, naming nobody), the record indexes (folded
 * again), every CSV export, and the listing snapshots an older deploy left. A
 * suppression stays, as its hash only,
 * so that the address is still never e-mailed.
 */
export async function erasePerson(email: string, deps: PersonalDataDeps): Promise<ErasureSummary> {
  const found = await find(email, deps)
  const { address } = found
  const { repositories } = deps
  const { store } = repositories
  let claims = 0
  const claimKeys = new Set<string>([
    ...found.reservations.map((r) => reservationClaimKey(r.productSlug, r.email, r.name)),
    ...found.subscriptions.map((s) => signupClaimKey(s.productSlug, address, s.variant)),
    confirmationThrottleKey(address),
  ])
  await mapWithConcurrency(found.reservations, 10, (r) => repositories.reservations.remove(r))
  await mapWithConcurrency(found.subscriptions, 10, (s) => repositories.subscriptions.remove(s))
  await mapWithConcurrency(found.consents, 10, (c) => deps.repositories.consents.remove(c))
  for (const key of claimKeys) {
    if (await store.getMetadata(key)) {
      await store.delete(key)
      claims += 1
    }
  }
  if (await repositories.confirmationLimits.forget(address)) claims += 1
  await mapWithConcurrency(found.histories, 10, (history) =>
    repositories.history.update(history, (current) => withoutAddress(current, address)),
  )
  const deliveries = await eraseFromDeliveries(
    store,
    address,
    found.histories.map((history) => history.id),
  )
  const orders = await repositories.orderAttributions.forgetBuyer(emailHash(address))
  const suppression = await deps.repositories.suppressions.forAddress(address)
  if (suppression?.email) {
    await deps.repositories.suppressions.update(suppression, (current) => ({
      ...current,
      email: null,
    }))
  }
  await deps.settle()
  await refoldIndexes(deps.repositories.indexes)
  await dropListExports(store)
  // why: the listing snapshots of an older deploy copied every record; nothing reads them now
  await dropLegacyListing(store, () => false)
  const summary: ErasureSummary = {
    reservations: found.reservations.length,
    subscriptions: found.subscriptions.length,
    consents: found.consents.length,
    notices: found.histories.length,
    claims,
    deliveries,
    orders,
    suppressionKept: suppression !== null,
  }
  await recordRequest('erase', found, deps)
  deps.log.info('people.erased', { ...summary })
  return summary
}
