import type { Store } from '@netlify/blobs'
import { consentRepository, type ConsentRepository } from './consentRepository.js'
import { suppressionRepository, type SuppressionRepository } from './suppressionRepository.js'
import { createLogger } from '../log.js'
import {
  HISTORY_PREFIX,
  RECORDS_STORE,
  RESERVATIONS_PREFIX,
  SUBSCRIPTIONS_PREFIX,
} from './blobLayout.js'
import { openStore, storeScope } from './blobStore.js'
import { confirmationLimits, type ConfirmationLimits } from './confirmationLimits.js'
import { DeliveryJobStore } from './deliveryJobStore.js'
import { demandLog, type DemandLog } from './demandLog.js'
import { orderAttributionStore, type OrderAttributionStore } from './orderAttributions.js'
import { claimBook, type ClaimBook } from './recordClaims.js'
import { idempotencyKeyBook, type IdempotencyKeyBook } from './idempotencyKeys.js'
import { lineContactBook, type LineContactBook } from './lineContacts.js'
import { UnitLedgerStore, type UnitLedgerOptions } from './reservationUnits.js'
import {
  RecordCollection,
  type CollectionLayout,
  type Listing,
  type RecordCollectionOptions,
} from './recordCollection.js'
import { isUsableRecordId } from './recordIds.js'
import { folderPartitions, idHexPartitions } from './listing/partitioning.js'
import type { RecordIndex } from './listing/recordIndex.js'
import type {
  NotificationHistory,
  NotifySubscription,
  ProductRecordRef,
  Reservation,
} from './records.js'
import type { RequestContext } from '../requestContext.js'
import { sendClaimBook, type SendClaimBook } from './sendClaims.js'
import { scheduledSendRepository, type ScheduledSendRepository } from './scheduledSends.js'
import { webhookEventLog, type WebhookEventLog } from './webhookEvents.js'
import { stockRepository, type StockRepository } from './stockRecords.js'

/** Records keyed `{prefix}/{productSlug}/{id}` (§2.1, §2.2), indexed per product. */
export class ProductRecordRepository<
  T extends ProductRecordRef & { status: string },
> extends RecordCollection<T, ProductRecordRef> {
  readonly #prefix: string

  constructor(store: Store, prefix: string, options?: RecordCollectionOptions) {
    super(store, productLayout<T>(prefix), options)
    this.#prefix = prefix
  }

  /** Every record of one product (reads only that product's index). */
  listProduct(productSlug: string): Promise<Listing<T>> {
    if (!isUsableRecordId(productSlug)) return Promise.resolve({ records: [], unreadableKeys: [] })
    return this.listUnder(`${this.#prefix}/${productSlug}/`)
  }
}

function hasStringFields(value: unknown, fields: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  return fields.every((field) => typeof record[field] === 'string')
}

/** The fields every product record has; a blob without them is not a record (issue: damaged blobs). */
const PRODUCT_RECORD_FIELDS = ['id', 'productSlug', 'status', 'createdAt'] as const

function productLayout<T extends ProductRecordRef & { status: string }>(
  prefix: string,
): CollectionLayout<T, ProductRecordRef> {
  return {
    name: prefix,
    prefix: `${prefix}/`,
    keyOf: ({ id, productSlug }) =>
      isUsableRecordId(id) && isUsableRecordId(productSlug)
        ? `${prefix}/${productSlug}/${id}`
        : null,
    isRecord: (value): value is T => hasStringFields(value, PRODUCT_RECORD_FIELDS),
    partitioning: folderPartitions(`${prefix}/`),
    // why: statistics (§4.9) count by status, by product and by variant (`variant:{slug}/{id}`),
    // archived records too (D3); and active or archived by status, so that a whole active list
    // knows its size before reading
    tally: (record) => {
      const { variant } = record as { variant?: unknown }
      return [
        `status:${record.status}`,
        `product:${record.productSlug}`,
        ...(typeof variant === 'string' ? [`variant:${record.productSlug}/${variant}`] : []),
        `${(record as { isArchived?: unknown }).isArchived === true ? 'archived' : 'active'}:${record.status}`,
      ]
    },
  }
}

export type ReservationRepository = ProductRecordRepository<Reservation>
export type SubscriptionRepository = ProductRecordRepository<NotifySubscription>
export type HistoryRepository = RecordCollection<NotificationHistory, { id: string }>

export function reservationRepository(store: Store, options?: RecordCollectionOptions) {
  return new ProductRecordRepository<Reservation>(store, RESERVATIONS_PREFIX, options)
}

export function subscriptionRepository(store: Store, options?: RecordCollectionOptions) {
  return new ProductRecordRepository<NotifySubscription>(store, SUBSCRIPTIONS_PREFIX, options)
}

/** Notification history under `notif-history:{id}` (§2.3). */
export function historyRepository(store: Store, options?: RecordCollectionOptions) {
  return new RecordCollection<NotificationHistory, { id: string }>(
    store,
    {
      name: 'notif-history',
      prefix: HISTORY_PREFIX,
      keyOf: ({ id }) => (isUsableRecordId(id) ? `${HISTORY_PREFIX}${id}` : null),
      isRecord: (value): value is NotificationHistory =>
        hasStringFields(value, ['id', 'productSlug', 'timestamp']),
      // why: a history record lists its recipients (a 50,000-recipient notice is ~1.3 MB), so
      // one partition would pass 5 MB after a few large notices
      partitioning: idHexPartitions(HISTORY_PREFIX, 'notif_'),
    },
    options,
  )
}

/** Everything stored in the records store, for one request. */
export interface Repositories {
  reservations: ReservationRepository
  subscriptions: SubscriptionRepository
  history: HistoryRepository
  /** The index of every record collection (their rebuild and verification, indexMaintenance.ts). */
  indexes: RecordIndex[]
  /** Restock delivery jobs, settled batches and spent delivery tickets. */
  deliveries: DeliveryJobStore
  /** Claims that make "one record per key" atomic (signups). */
  claims: ClaimBook
  /** What each `Idempotency-Key` sent to an endpoint remembers (forms/idempotentRequest.ts). */
  idempotencyKeys: IdempotencyKeyBook
  /** Hourly caps on confirmation e-mails per address (README "Abuse protection"). */
  confirmationLimits: ConfirmationLimits
  /** The unit ledger of a capped product (storage/reservationUnits.ts). */
  unitLedger(productSlug: string, options: UnitLedgerOptions): UnitLedgerStore
  /** Consent records and wording versions (docs/compliance.md). */
  consents: ConsentRepository
  /** Addresses no e-mail may go to (bounces, complaints). */
  suppressions: SuppressionRepository
  /**
   * The records store itself, for the storage functions of consent and personal data that take
   * it (webhook receipts, confirmation throttle, erase): they build every key themselves.
   */
  store: Store
  stock: StockRepository
  /** Stock webhook events seen (replay protection). */
  stockEvents: WebhookEventLog
  /** Order webhook events seen (replay protection). */
  orderEvents: WebhookEventLog
  /** Which send chooses a product's recipients now, and which notice holds each subscriber. */
  sendClaims: SendClaimBook
  /** Restock sends staff scheduled for later (`sendAt`). */
  scheduledSends: ScheduledSendRepository
  /** Day markers, closed-day rollups and click markers of the pictures of demand. */
  demand: DemandLog
  /** Orders counted for the restock notice that led to them, and whose they are. */
  orderAttributions: OrderAttributionStore
  /** LINE users' friend status and subscriptions, and the spent LINE Login states. */
  lineContacts: LineContactBook
}

/** What the index upkeep of a request may do. */
export interface IndexUpkeep {
  /** Starts the background rebuild of missing indexes. Default: nothing (the scheduled verifier starts it). */
  requestRebuild?: () => void
  /** The clock of index folds, ms since the epoch (the wiring passes the request's). Default: `Date.now`. */
  now?: () => number
}

/**
 * Every repository of the records store for one request; background index folds go to
 * `waitUntil`. Opened by the wiring (services.ts), or by a test.
 */
export function openRepositories(context: RequestContext, upkeep: IndexUpkeep = {}): Repositories {
  const store = openStore(RECORDS_STORE, context)
  const log = createLogger(context.requestId ?? 'background')
  const options: RecordCollectionOptions = {
    scope: storeScope(RECORDS_STORE, context),
    defer: (work) => context.waitUntil?.(work),
    onUnreadable: (key) =>
      log.warn('storage.record_unreadable', {
        key,
        fix: 'the blob is not a readable record: fix it in the Netlify UI or delete it',
      }),
    onDamagedIndex: (key, problem) =>
      log.warn('storage.index_damaged', {
        key,
        problem,
        fix: 'none needed: the index blob is ignored and rebuilt from the records',
      }),
    requestRebuild: upkeep.requestRebuild,
    now: upkeep.now ?? Date.now,
    onBackgroundError: (work, error) =>
      log.warn('storage.background_failed', {
        work,
        error: error instanceof Error ? error.message : String(error),
      }),
  }
  const reservations = reservationRepository(store, options)
  const subscriptions = subscriptionRepository(store, options)
  const history = historyRepository(store, options)
  const consents = consentRepository(store, options)
  const suppressions = suppressionRepository(store, options)
  const stock = stockRepository(store, options)
  const scheduledSends = scheduledSendRepository(store, options)
  return {
    reservations,
    subscriptions,
    history,
    indexes: [
      reservations,
      subscriptions,
      history,
      consents,
      suppressions,
      stock,
      scheduledSends,
    ].map((collection) => collection.index),
    deliveries: new DeliveryJobStore(store),
    claims: claimBook(store),
    idempotencyKeys: idempotencyKeyBook(store),
    confirmationLimits: confirmationLimits(store),
    unitLedger: (productSlug, ledgerOptions) =>
      new UnitLedgerStore(store, productSlug, ledgerOptions),
    consents,
    suppressions,
    store,
    stock,
    stockEvents: webhookEventLog(store, 'stock'),
    orderEvents: webhookEventLog(store, 'order'),
    sendClaims: sendClaimBook(store),
    scheduledSends,
    demand: demandLog(store),
    orderAttributions: orderAttributionStore(store),
    lineContacts: lineContactBook(store),
  }
}
