import { mapWithConcurrency } from '../concurrency.js'
import { deliveryKeys, lineSignupClaimKey } from '../storage/blobLayout.js'
import type { DeliveryJob } from '../storage/deliveryJobStore.js'
import { lineUserHash } from '../storage/lineContacts.js'
import { eraseLineUserFromDeliveries } from '../storage/personalDataBlobs.js'
import type { NotificationHistory } from '../storage/records.js'
import type { ExportedConsent, PersonExport } from './personalData.js'
import {
  finishErasure,
  recordPersonRequest,
  removePersonRecords,
  type ErasureSummary,
  type PersonalDataDeps,
  type PersonRecords,
} from './personalDataSteps.js'

/**
 * The personal-data requests (APPI Art. 33–35, docs/compliance.md) of a shopper who signed up
 * with LINE, by their LINE user id: their LINE sign-ups, the reservations made from their holds,
 * the consents filed under their
 * `lineUserHash`, the notices pushed to them, their contact record (friend or not), their claims
 * and their place in delivery snapshots. An erase leaves no LINE user id in any blob. Neither
 * logs the id.
 */

/** `reservations` are those made from the user's holds (`channel: 'line'`). */
interface FoundLine extends PersonRecords {
  lineUserId: string
  hash: string
  /** Notices whose delivery snapshot names the user. */
  histories: NotificationHistory[]
}

async function findLine(lineUserId: string, deps: PersonalDataDeps): Promise<FoundLine> {
  const hash = lineUserHash(lineUserId)
  const { repositories } = deps
  const [subscriptions, reservations, histories, consents] = await Promise.all([
    repositories.subscriptions.list(),
    repositories.reservations.list(),
    repositories.history.list(),
    repositories.consents.listForAddress(hash),
  ])
  const mine = subscriptions.records
    .filter((record) => record.channel === 'line' && record.lineUserId === lineUserId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const products = new Set(mine.map((record) => record.productSlug))
  const named = await mapWithConcurrency(
    histories.records.filter((history) => products.has(history.productSlug)),
    10,
    async (history) => {
      const job = (await repositories.store.get(deliveryKeys.job(history.id), {
        type: 'json',
      })) as DeliveryJob | null
      return job?.recipients.some((recipient) => recipient.lineUserId === lineUserId)
        ? history
        : null
    },
  )
  return {
    lineUserId,
    hash,
    subscriptions: mine,
    reservations: reservations.records
      .filter((record) => record.channel === 'line' && record.lineUserId === lineUserId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    consents: consents.records.sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    histories: named
      .filter((history): history is NotificationHistory => history !== null)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp)),
  }
}

/** POST /api/admin/people/export with `lineUserId`. */
export async function exportLinePerson(
  lineUserId: string,
  deps: PersonalDataDeps,
): Promise<PersonExport & { lineUserId: string }> {
  const found = await findLine(lineUserId, deps)
  const consents: ExportedConsent[] = []
  for (const consent of found.consents) {
    const wording = await deps.repositories.consents.wording(consent.wordingVersion)
    consents.push({ ...consent, wordingText: wording?.text ?? null })
  }
  await recordPersonRequest('export', found, deps)
  deps.log.info('people.exported', {
    channel: 'line',
    reservations: found.reservations.length,
    subscriptions: found.subscriptions.length,
    consents: found.consents.length,
    notices: found.histories.length,
  })
  return {
    email: '',
    lineUserId,
    reservations: found.reservations,
    subscriptions: found.subscriptions,
    consents,
    notices: found.histories.map((history) => ({
      notificationId: history.id,
      productSlug: history.productSlug,
      sentAt: history.completedAt ?? history.timestamp,
    })),
    orders: [],
    suppressed: false,
  }
}

/**
 * POST /api/admin/people/erase with `lineUserId`: removes the user's LINE sign-ups and the
 * reservations made from their holds (archived too) with their claims, their consent records, their contact record, their entries in delivery
 * snapshots, the record indexes' copies (folded again), every CSV export and the listing
 * snapshots of older deploys.
 */
export async function eraseLinePerson(
  lineUserId: string,
  deps: PersonalDataDeps,
): Promise<ErasureSummary> {
  const found = await findLine(lineUserId, deps)
  const { repositories } = deps
  const { store } = repositories
  const claims = await removePersonRecords(
    found,
    found.subscriptions.map((s) => lineSignupClaimKey(s.productSlug, found.hash, s.variant)),
    deps,
  )
  await repositories.lineContacts.remove(found.hash)
  const deliveries = await eraseLineUserFromDeliveries(
    store,
    lineUserId,
    found.histories.map((history) => history.id),
  )
  await finishErasure(deps)
  const summary: ErasureSummary = {
    reservations: found.reservations.length,
    subscriptions: found.subscriptions.length,
    consents: found.consents.length,
    notices: found.histories.length,
    claims,
    deliveries,
    orders: 0,
    suppressionKept: false,
  }
  await recordPersonRequest('erase', found, deps)
  deps.log.info('people.erased', { channel: 'line', ...summary })
  return summary
}
