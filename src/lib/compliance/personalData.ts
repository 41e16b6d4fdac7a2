import { mapWithConcurrency } from '../concurrency.js'
import type { ConsentRecord } from '../storage/consentRepository.js'
import { confirmationThrottleKey } from '../storage/confirmationThrottle.js'
import { reservationClaimKey, signupClaimKey } from '../storage/blobLayout.js'
import { emailHash, normaliseEmail } from '../storage/emailHash.js'
import { eraseFromDeliveries } from '../storage/personalDataBlobs.js'
import type { NotificationHistory, NotifySubscription, Reservation } from '../storage/records.js'
import type { BuyerAttribution } from '../storage/orderAttributions.js'
import {
  finishErasure,
  recordPersonRequest,
  removePersonRecords,
  type ErasureSummary,
  type PersonalDataDeps,
  type PersonRecords,
} from './personalDataSteps.js'

/**
 * The person's rights under APPI Art. 33–35 (docs/compliance.md): everything stored about one
 * e-mail address, answered (`exportPerson`) or removed (`erasePerson`). Neither logs the address.
 */

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

interface Found extends PersonRecords {
  address: string
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
  await recordPersonRequest('export', found, deps)
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
  let claims = await removePersonRecords(
    found,
    [
      ...found.reservations.map((r) => reservationClaimKey(r.productSlug, r.email, r.name)),
      ...found.subscriptions.map((s) => signupClaimKey(s.productSlug, address, s.variant)),
      confirmationThrottleKey(address),
    ],
    deps,
  )
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
  await finishErasure(deps)
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
  await recordPersonRequest('erase', found, deps)
  deps.log.info('people.erased', { ...summary })
  return summary
}
