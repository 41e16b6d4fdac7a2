import { mapWithConcurrency } from '../concurrency.js'
import { deliveryKeys, lineSignupClaimKey } from '../storage/blobLayout.js'
import type { DeliveryJob } from '../storage/deliveryJobStore.js'
import { lineUserHash } from '../storage/lineContacts.js'
import { dropLegacyListing } from '../storage/legacyListing.js'
import {
  dropListExports,
  eraseLineUserFromDeliveries,
  refoldIndexes,
} from '../storage/personalDataBlobs.js'
import type { NotificationHistory, NotifySubscription, Reservation } from '../storage/records.js'
import type {
  ErasureSummary,
  ExportedConsent,
  PersonalDataDeps,
  PersonExport,
} from './personalData.js'

/**
 * The personal-data requests (APPI Art. 33–35, docs/compliance.md) of a shopper who signed up
 * with LINE, by their LINE user id: their LINE sign-ups, the reservations made from their holds,
 * the consents filed under their
 * `lineUserHash`, the notices pushed to them, their contact record (friend or not), their claims
 * and their place in delivery snapshots. An erase leaves no LINE user id in any blob. Neither
 * logs the id.
 */

interface FoundLine {
  lineUserId: string
  hash: string
  subscriptions: NotifySubscription[]
  /** Reservations made from the user's holds (`channel: 'line'`). */
  reservations: Reservation[]
  consents: Awaited<
    ReturnType<PersonalDataDeps['repositories']['consents']['listForAddress']>
  >['records']
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

async function recordLineRequest(
  action: 'export' | 'erase',
  found: FoundLine,
  deps: PersonalDataDeps,
): Promise<void> {
  await deps.audit.record([
    {
      action,
      record: { type: 'person', id: deps.log.requestId, productSlug: null },
      from: null,
      to: String(found.subscriptions.length + found.reservations.length),
    },
    ...found.reservations.map(({ id, productSlug }) => ({
      action,
      record: { type: 'reservation' as const, id, productSlug },
      from: null,
      to: null,
    })),
    ...found.subscriptions.map(({ id, productSlug }) => ({
      action,
      record: { type: 'subscription' as const, id, productSlug },
      from: null,
      to: null,
    })),
  ])
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
  await recordLineRequest('export', found, deps)
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
  await mapWithConcurrency(found.reservations, 10, (r) => repositories.reservations.remove(r))
  await mapWithConcurrency(found.subscriptions, 10, (s) => repositories.subscriptions.remove(s))
  await mapWithConcurrency(found.consents, 10, (c) => repositories.consents.remove(c))
  let claims = 0
  const claimKeys = new Set(
    found.subscriptions.map((s) => lineSignupClaimKey(s.productSlug, found.hash, s.variant)),
  )
  for (const key of claimKeys) {
    if (await store.getMetadata(key)) {
      await store.delete(key)
      claims += 1
    }
  }
  await repositories.lineContacts.remove(found.hash)
  const deliveries = await eraseLineUserFromDeliveries(
    store,
    lineUserId,
    found.histories.map((history) => history.id),
  )
  await deps.settle()
  await refoldIndexes(repositories.indexes)
  await dropListExports(store)
  await dropLegacyListing(store, () => false)
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
  await recordLineRequest('erase', found, deps)
  deps.log.info('people.erased', { channel: 'line', ...summary })
  return summary
}
