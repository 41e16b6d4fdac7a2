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
import { storedLedgerKeys, UnitLedgerStore, type UnitLedgerOptions } from './reservationUnits.js'
import {
  RecordCollection,
  type CollectionLayout,
  type Listing,
  type RecordCollectionOptions,
} from './recordCollection.js'
import { isUsableRecordId } from './recordIds.js'
import {
  findKeyById,
  readListPage,
  visitList,
  type ListPageAnswer,
  type ListPageQuery,
} from './listing/listPages.js'
import { folderPartitions, idHexPartitions } from './listing/partitioning.js'
import type { CounterLayout } from './listing/recordCounters.js'
import type { RecordIndex } from './listing/recordIndex.js'
import { searchText } from './listing/recordSearch.js'
import type { TimeLayout } from './listing/timeView.js'
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

export type { ListPageAnswer, ListPageQuery } from './listing/listPages.js'
export type { CountedGroup } from './listing/recordCounters.js'

/** What every product record has that the lists read (§2.1, §2.2). */
type ProductRecord = ProductRecordRef & {
  status: string
  createdAt: string
  isArchived?: boolean
  archivedAt?: string
}

/**
 * Records keyed `{prefix}/{productSlug}/{id}` (§2.1, §2.2), indexed per product, with a time
 * view of their lists and counters by status, product and archived (plus what `counted` adds).
 */
export class ProductRecordRepository<T extends ProductRecord> extends RecordCollection<
  T,
  ProductRecordRef
> {
  readonly #prefix: string

  constructor(
    store: Store,
    prefix: string,
    counted: Omit<CounterLayout, 'partition'>,
    options?: RecordCollectionOptions,
  ) {
    super(store, productLayout<T>(prefix, counted), options)
    this.#prefix = prefix
  }

  /** Every record of one product (reads only that product's index). */
  listProduct(productSlug: string): Promise<Listing<T>> {
    if (!isUsableRecordId(productSlug)) return Promise.resolve({ records: [], unreadableKeys: [] })
    return this.listUnder(`${this.#prefix}/${productSlug}/`)
  }

  /**
   * One page of the active or archived list of every product, in its order, read from the
   * time view; null while the view (or, for a page after a cursor, the counters) is not
   * complete: read the whole listing instead.
   */
  async page(query: ListPageQuery): Promise<ListPageAnswer<T> | null> {
    const snapshot = await this.viewSnapshot()
    if (!snapshot) return null
    return readListPage<T>(
      { snapshot, counters: this.counters, counts: () => this.readyCounts() },
      query,
    )
  }

  /**
   * Visits every record of a list of every product in its order, a segment at a time (exports);
   * false (nothing visited) while the view is not complete, or when it was found damaged.
   */
  async visitList(
    query: Pick<ListPageQuery, 'list' | 'status' | 'needle'>,
    visit: (record: T) => void | Promise<void>,
  ): Promise<boolean> {
    const snapshot = await this.viewSnapshot()
    return snapshot ? visitList<T>(snapshot, query, visit) : false
  }

  /** The record with this id, whatever its product; undefined while the view is not complete. */
  async findById(id: string): Promise<T | null | undefined> {
    const snapshot = await this.viewSnapshot()
    if (!snapshot) return undefined
    const key = await findKeyById(snapshot, id)
    if (key === null || key === undefined) return key
    const [productSlug, recordId] = key.slice(this.#prefix.length + 1).split('/')
    return this.get({ productSlug, id: recordId })
  }

  /**
   * Blobs of the collection that are not readable records, or null while the time view is not
   * complete. Reads only the pending records the view knows as unreadable (a deleted or
   * repaired blob), not every pending record.
   */
  async unreadableCount(): Promise<number | null> {
    // why: the deltas before the catalog, as `viewSnapshot` reads them
    const listed = await this.index.pendingDeltas(null)
    const catalog = await this.index.viewCatalog()
    if (!catalog) return null
    const known = new Set(Object.values(catalog.partitions).flatMap((ref) => ref.unreadable))
    const pending = await this.index.pendingEntries(listed, (key) => known.has(key))
    let unreadable = 0
    for (const key of known) {
      const entry = pending.get(key)
      if (entry === undefined || entry?.record === null) unreadable += 1
    }
    return unreadable
  }
}

function hasStringFields(value: unknown, fields: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const record = value as Record<string, unknown>
  return fields.every((field) => typeof record[field] === 'string')
}

/** The fields every product record has; a blob without them is not a record (issue: damaged blobs). */
const PRODUCT_RECORD_FIELDS = ['id', 'productSlug', 'status', 'createdAt'] as const

/** The lists' order and split of product records: active by creation, archived by archiving; one family per status. */
const productTimeLayout = (prefix: string): TimeLayout => ({
  family: (record) => {
    const { isArchived, status } = record as ProductRecord
    return [isArchived === true ? 'archived' : 'active', status]
  },
  sortTime: (record) => {
    const { isArchived, archivedAt, createdAt } = record as ProductRecord
    return isArchived === true ? (archivedAt ?? '') : createdAt
  },
  id: (record) => (record as ProductRecord).id,
  key: (record) => {
    const { productSlug, id } = record as ProductRecord
    return `${prefix}/${productSlug}/${id}`
  },
  searchText: (record) => searchText(record as ProductRecord & { email: string }),
})

/** What every product record is counted by: status, product, variant and whether it is archived. */
const PRODUCT_DIMENSIONS: CounterLayout['dimensions'] = {
  status: (record) => (record as ProductRecord).status,
  product: (record) => (record as ProductRecord).productSlug,
  archived: (record) => ((record as ProductRecord).isArchived === true ? 'archived' : 'active'),
  // why: `byVariant` (statistics) counts a product's records per variant; '' for none
  variant: (record) => {
    const { variant } = record as { variant?: unknown }
    return typeof variant === 'string' ? variant : ''
  },
}

function productLayout<T extends ProductRecord>(
  prefix: string,
  counted: Omit<CounterLayout, 'partition'>,
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
    counters: {
      dimensions: { ...PRODUCT_DIMENSIONS, ...counted.dimensions },
      sums: counted.sums,
      partition: 'product',
    },
    timeView: productTimeLayout(prefix),
  }
}

export type ReservationRepository = ProductRecordRepository<Reservation>
export type SubscriptionRepository = ProductRecordRepository<NotifySubscription>
export type HistoryRepository = RecordCollection<NotificationHistory, { id: string }>

/** Reservations are counted by status, product and archived, with the units they hold summed (`quantity`, 1 when absent). */
export function reservationRepository(store: Store, options?: RecordCollectionOptions) {
  const counted = {
    dimensions: {},
    sums: { units: (record: unknown) => (record as Reservation).quantity ?? 1 },
  }
  return new ProductRecordRepository<Reservation>(store, RESERVATIONS_PREFIX, counted, options)
}

/**
 * Subscriptions are counted by status, product and archived, and by whether a double opt-in
 * confirmation is still awaited (`confirmation`: `awaited` when `confirmedAt` is null).
 */
export function subscriptionRepository(store: Store, options?: RecordCollectionOptions) {
  const counted = {
    dimensions: {
      confirmation: (record: unknown) =>
        (record as NotifySubscription).confirmedAt === null ? 'awaited' : 'given',
    },
  }
  return new ProductRecordRepository<NotifySubscription>(
    store,
    SUBSCRIPTIONS_PREFIX,
    counted,
    options,
  )
}

/**
 * Notification history under `notif-history:{id}` (§2.3), counted per notice (one group each,
 * in one shard blob) by what a notice's summary line shows: id, time, product, variant, the
 * stored state fields (`state`, as JSON) and the sent and failed counts, so the overview's
 * recent notices read that blob, never a record (a record lists its recipients).
 */
export function historyRepository(store: Store, options?: RecordCollectionOptions) {
  // why: a history record lists its recipients (a 50,000-recipient notice is ~1.3 MB), so
  // one partition would pass 5 MB after a few large notices
  const partitioning = idHexPartitions(HISTORY_PREFIX, 'notif_')
  const keyOf = ({ id }: { id: string }) => (isUsableRecordId(id) ? `${HISTORY_PREFIX}${id}` : null)
  const field = (name: keyof NotificationHistory) => (record: unknown) => {
    const value = (record as NotificationHistory)[name]
    return typeof value === 'string' ? value : ''
  }
  return new RecordCollection<NotificationHistory, { id: string }>(
    store,
    {
      name: 'notif-history',
      prefix: HISTORY_PREFIX,
      keyOf,
      isRecord: (value): value is NotificationHistory =>
        hasStringFields(value, ['id', 'productSlug', 'timestamp']),
      partitioning,
      counters: {
        dimensions: {
          partition: (record) => partitioning.of(keyOf(record as NotificationHistory) ?? '') ?? '',
          id: field('id'),
          timestamp: field('timestamp'),
          product: field('productSlug'),
          variant: field('variant'),
          state: (record) => {
            const { status, deliveryState, deliveryMode } = record as NotificationHistory
            return JSON.stringify([status ?? null, deliveryState ?? null, deliveryMode ?? null])
          },
        },
        sums: {
          sent: (record) => (record as NotificationHistory).sentCount ?? 0,
          failed: (record) => (record as NotificationHistory).failedRecipients?.length ?? 0,
        },
        partition: 'partition',
        // why: notices are written a batch at a time by one delivery run: one blob, read whole
        shards: 1,
      },
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
  /** The keys of the ledgers stored (`unitLedgerKey`), in one listing. */
  unitLedgerKeys(): Promise<Set<string>>
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
    unitLedgerKeys: () => storedLedgerKeys(store),
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
