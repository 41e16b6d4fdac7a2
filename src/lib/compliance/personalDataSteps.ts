import type { AuditRecorder } from '../audit/auditTrail.js'
import { mapWithConcurrency } from '../concurrency.js'
import type { Logger } from '../log.js'
import type { ConsentRecord } from '../storage/consentRepository.js'
import { dropLegacyListing } from '../storage/legacyListing.js'
import { dropListExports, refoldIndexes } from '../storage/personalDataBlobs.js'
import type { NotifySubscription, Reservation } from '../storage/records.js'
import type { Repositories } from '../storage/repositories.js'

/**
 * The steps a personal-data request (APPI Art. 33–35, docs/compliance.md) takes whoever it is
 * about: a person named by an e-mail address (`personalData.ts`) or by a LINE user id
 * (`linePersonalData.ts`).
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

/** What an erase removed, counted: the answer of POST /api/admin/people/erase. */
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

/** The person's records a request reads, and an erase removes. */
export interface PersonRecords {
  reservations: Reservation[]
  subscriptions: NotifySubscription[]
  consents: ConsentRecord[]
}

/** The audit entries of an export or erase: ids and counts, nothing that names the person. */
export async function recordPersonRequest(
  action: 'export' | 'erase',
  found: PersonRecords,
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

/**
 * Removes the person's reservations and subscriptions (archived too) and consent records, then
 * the claim blobs `claimKeys` that exist. Answers how many claims it removed.
 */
export async function removePersonRecords(
  found: PersonRecords,
  claimKeys: Iterable<string>,
  deps: PersonalDataDeps,
): Promise<number> {
  const { repositories } = deps
  await mapWithConcurrency(found.reservations, 10, (r) => repositories.reservations.remove(r))
  await mapWithConcurrency(found.subscriptions, 10, (s) => repositories.subscriptions.remove(s))
  await mapWithConcurrency(found.consents, 10, (c) => repositories.consents.remove(c))
  let claims = 0
  for (const key of new Set(claimKeys)) {
    if (await repositories.store.getMetadata(key)) {
      await repositories.store.delete(key)
      claims += 1
    }
  }
  return claims
}

/**
 * The end of every erase, once its records are gone: waits for the snapshot saves, folds the
 * record indexes again (their copies of the removed records go), and drops every CSV export and
 * the listing snapshots an older deploy left (they copied every record; nothing reads them now).
 */
export async function finishErasure(deps: PersonalDataDeps): Promise<void> {
  await deps.settle()
  await refoldIndexes(deps.repositories.indexes)
  await dropListExports(deps.repositories.store)
  await dropLegacyListing(deps.repositories.store, () => false)
}
