import { createHash } from 'node:crypto'

/**
 * Every blob the service writes, in one place: the stores, each key's shape, and the id formats
 * of new records. Nothing outside storage/ builds a key or an id; docs/architecture.md "Blob
 * layout" has the same table for people.
 *
 * Store `shop-records` (per deploy context, D12):
 * | key                                    | holds                                     | written           |
 * | `reservations/{productSlug}/{id}`      | a reservation (§2.2)                      | CAS               |
 * | `notify/{productSlug}/{id}`            | a restock subscription (§2.1)             | CAS               |
 * | `notif-history:{id}`                   | a restock notice's history (§2.3)         | CAS               |
 * | `reservation-claims/{slug}/{sha256}`   | no longer written; erased with a person   | deleted only      |
 * | `idempotency-keys/{op}/{day}/{sha256}` | an Idempotency-Key's request and answer   | onlyIfNew / CAS   |
 * | `notify-claims/{target}/{sha256(email)}` | which subscription is the pending one   | onlyIfNew / CAS   |
 * | `reservation-units/{target}`           | units held under a target's cap (ledger)  | onlyIfNew / CAS   |
 * | `notif-delivery/{id}/job`              | who a delivery sends what to              | onlyIfNew, once   |
 * | `notif-delivery/{id}/batches/{n}`      | what happened to batch n                  | onlyIfNew, once   |
 * | `notif-delivery/{id}/progress`         | a delivery's settled batches, summed      | onlyIfNew / CAS   |
 * | `delivery-tickets/{nonce}`             | a spent delivery ticket (replay guard)    | onlyIfNew, once   |
 * | `stock/{target}`                       | stock, auto-notice settings, waves, holds | onlyIfNew / CAS   |
 * | `stock-events/{eventId}`               | a stock webhook event seen (replay guard) | onlyIfNew / CAS   |
 * | `stock-event-days/{day}/{eventId}`     | the day it arrived (for the purge)        | overwritten       |
 * | `order-events/{eventId}`               | an order webhook event seen (replay guard) | onlyIfNew / CAS  |
 * | `order-event-days/{day}/{eventId}`     | the day it arrived (for the purge)        | overwritten       |
 * | `send-locks/{productSlug}`             | the send choosing a product's recipients  | onlyIfNew / CAS   |
 * | `send-claims/{slug}/{subscriptionId}`  | the notice a subscriber is claimed by     | onlyIfNew / CAS   |
 * | `scheduled-sends/{sch_id}`             | a restock send staff scheduled (`sendAt`) | onlyIfNew / CAS   |
 * | `index/{collection}/v{n}/p/{partition}` | a partition's index: records + ETags     | onlyIfNew / CAS   |
 * | `index/{collection}/v{n}/complete`     | every partition of the collection indexed | onlyIfNew, once   |
 * | `index-deltas/{collection}/{part}/{d}` | a record write not yet folded in an index | onlyIfNew, once   |
 * | `index/{collection}/t1/catalog`        | the time view of a list: its blobs, counts | onlyIfNew / CAS   |
 * | `index/{collection}/t1/{s|q|d}/{ms}-…` | a time segment, search rows, a directory  | onlyIfNew, once   |
 * | `counters/{collection}/{layout}/{n}`   | counts by group, shard n, kept at writes  | onlyIfNew / CAS   |
 * | `index-rebuild/claim`                  | the one index rebuild running (a lease)   | onlyIfNew / CAS   |
 * | `index-rebuild/verified`               | where the index verifier continues        | overwritten       |
 * | `consents/{emailHash}/{cns_id}`        | a consent record (docs/compliance.md)     | onlyIfNew         |
 * | `consent-wordings/{version}`           | the text of one consent wording version   | onlyIfNew, once   |
 * | `suppressions/{emailHash}`             | a bounced or complaining address          | onlyIfNew / CAS   |
 * | `webhook-receipts/{source}/{id}`       | a webhook message handled (replay guard)  | onlyIfNew, once   |
 * | `confirmation-sends/{emailHash}`       | when the last double opt-in link went     | onlyIfNew / CAS   |
 * | `demand/{kind}/{day}/{event}~{count}`  | a day marker of the pictures of demand    | onlyIfNew, once   |
 * | `demand-rollups/v1/{kind}/{day}`       | a closed JST day's total                  | onlyIfNew, once   |
 * | `demand-clicks/{noticeId}/{recipient}` | a recipient's first click on a notice     | onlyIfNew, once   |
 * (storage/demandLog.ts builds these keys.)
 * | `order-attributions/{noticeId}/{order}~{product}~{units}~{revenue}~{currency}~{c|n}` | an order counted for a notice | onlyIfNew, once |
 * | `order-buyers/{emailHash}/{noticeId}/{order}~{product}` | whose attribution it is (erased with the person) | overwritten |
 * (storage/orderAttributions.ts builds these keys.)
 * | `list-exports/{exportId}/job`          | a CSV export: what, state, progress       | onlyIfNew / CAS   |
 * | `list-exports/{exportId}/parts/{n}`    | part n (1-based) of the export's CSV text | overwritten       |
 * | `export-tickets/{nonce}`               | a spent export ticket (replay guard)      | onlyIfNew, once   |
 *
 *
 * `{target}` is `targetSegment`: the product slug, or `{productSlug}~{variantId}` for one variant
 * of a product with variants.
 *
 * Store `audit-trail`: `all/{n}`, `record/{recordId}/{n}`, `actor/{actor}/{n}`, the same entry
 * three times, each onlyIfNew, never rewritten; `{n}` = the time counted down + a UUID.
 *
 * Store `keyword-logs` (§2.6): `{YYYY-MM-DD}/{YYYY-MM-DDTHH}/{timestamp}-{random}~{r|z}{keyword}`
 * one search each (the key carries the search; older keys `{YYYY-MM-DD}/{timestamp}-{random}`),
 * `rollups/v1/{hour|day}/{period}` closed periods (onlyIfNew), `late/{entry key}` late entries
 * (storage/keywordLogRepository.ts).
 *
 * Store `search-synonyms`: `synonyms/v1`, the whole list of synonym groups staff added, one blob
 * changed by compare-and-swap (storage/searchSynonymRepository.ts, docs/search.md "Synonyms").
 */

/** Name of the store holding reservations, subscriptions, history, claims and deliveries (§2). */
export const RECORDS_STORE = 'shop-records'
/** Name of the keyword log store (§2.6). */
export const KEYWORD_LOGS_STORE = 'keyword-logs'
/** Name of the store of the search synonyms staff add (docs/search.md, "Synonyms"). */
export const SEARCH_SYNONYMS_STORE = 'search-synonyms'
/** One blob holds the whole synonym list: staff add a few hundred groups at most, read as one. */
export const SYNONYMS_KEY = 'synonyms/v1'
/** Name of the audit trail store: who changed what, one blob per change, never rewritten. */
export const AUDIT_STORE = 'audit-trail'

// why: ids and staff names are [A-Za-z0-9._-]; encoding keeps any other text from making a path
const keySegment = (value: string) => encodeURIComponent(value)

/**
 * The three keys of one audit entry (`name` orders them newest first, storage/auditRepository.ts):
 * the whole trail, its record's, its actor's. Prefixes of each for listing.
 */
export const AUDIT_KEYS = {
  all: 'all/',
  record: (recordId: string) => `record/${keySegment(recordId)}/`,
  actor: (actor: string) => `actor/${keySegment(actor)}/`,
}

/** Record prefixes of the product-scoped collections. */
export const RESERVATIONS_PREFIX = 'reservations'
export const SUBSCRIPTIONS_PREFIX = 'notify'
/** Prefix of history records: `notif-history:{id}`. */
export const HISTORY_PREFIX = 'notif-history:'

/**
 * The claim of a reservation submission (e-mail and name hashed). The service no longer writes
 * these; a store may still hold some, and erasing a person deletes theirs.
 */
export function reservationClaimKey(productSlug: string, email: string, name: string): string {
  const digest = createHash('sha256').update(`${email}\n${name}`).digest('hex')
  return `reservation-claims/${productSlug}/${digest}`
}

/**
 * The key segment of a product, or of one variant of it: `{productSlug}~{variantId}`. Never a
 * folder of its own (`{productSlug}/{variantId}`): the product's blob and its variants' would
 * then be a file and a folder of one name on a file-backed store.
 */
export function targetSegment(productSlug: string, variant?: string): string {
  return variant === undefined ? productSlug : `${productSlug}~${variant}`
}

/**
 * The claim of a (product or variant, e-mail) pair; the e-mail is hashed so that no address
 * appears in a key listing.
 */
export function signupClaimKey(productSlug: string, email: string, variant?: string): string {
  const emailHash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
  return `notify-claims/${targetSegment(productSlug, variant)}/${emailHash}`
}

/** The claim of a LINE user's one pending sign-up for a product (or variant). */
export function lineSignupClaimKey(
  productSlug: string,
  userHash: string,
  variant?: string,
): string {
  return `notify-claims/${targetSegment(productSlug, variant)}/line-${userHash}`
}

/** Prefix of the Idempotency-Key marks (storage/idempotencyKeys.ts). */
export const IDEMPOTENCY_KEYS_PREFIX = 'idempotency-keys/'

/**
 * The mark of an `Idempotency-Key` sent to `operation`, in the bucket of the UTC `day` it was
 * first used; the key itself is hashed (it is the client's secret).
 */
export function idempotencyKeyMark(operation: string, day: string, key: string): string {
  const digest = createHash('sha256').update(key).digest('hex')
  return `${IDEMPOTENCY_KEYS_PREFIX}${operation}/${day}/${digest}`
}

/** Where the unit ledgers are kept (`unitLedgerKey`). */
export const UNIT_LEDGER_PREFIX = 'reservation-units/'

/** The unit ledger of a capped product, or of a capped variant (storage/reservationUnits.ts). */
export function unitLedgerKey(productSlug: string, variant?: string): string {
  return `${UNIT_LEDGER_PREFIX}${targetSegment(productSlug, variant)}`
}

const DELIVERY_PREFIX = 'notif-delivery'

/** Keys of one restock delivery. */
export const deliveryKeys = {
  job: (notificationId: string) => `${DELIVERY_PREFIX}/${notificationId}/job`,
  batchesPrefix: (notificationId: string) => `${DELIVERY_PREFIX}/${notificationId}/batches/`,
  batch: (notificationId: string, batch: number) =>
    `${DELIVERY_PREFIX}/${notificationId}/batches/${batch}`,
  /** Written once batch n's recipients are marked `notified`; a batch without it died between. */
  markedPrefix: (notificationId: string) => `${DELIVERY_PREFIX}/${notificationId}/notified/`,
  marked: (notificationId: string, batch: number) =>
    `${DELIVERY_PREFIX}/${notificationId}/notified/${batch}`,
  /** The progress record: batches 0…n−1 summed, what a poll reads (one blob, any size). */
  progress: (notificationId: string) => `${DELIVERY_PREFIX}/${notificationId}/progress`,
}

/** Key of one address's hourly confirmation counter (`digest`: a hash of the address). */
export function confirmationLimitKey(digest: string): string {
  return `confirmation-limits/${digest}`
}

/** Key of a spent delivery ticket. */
export function spentTicketKey(nonce: string): string {
  return `delivery-tickets/${nonce}`
}

/** A new reservation id: `res_<uuid>` (§2.2). */
export function newReservationId(): string {
  return `res_${crypto.randomUUID()}`
}

/** A new subscription id: `ntf_<ms>-<10 hex>`; it carries its creation time (§2.1), `at`. */
export function newSubscriptionId(at: number): string {
  return `ntf_${at}-${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
}

/** Consent records of one address: `consents/{emailHash}/`; a record `consents/{emailHash}/{id}`. */
export const CONSENTS_PREFIX = 'consents'
/** The text of a consent wording version: `consent-wordings/{version}`. */
export function consentWordingKey(version: string): string {
  return `consent-wordings/${version}`
}

/** A new consent id: `cns_<ms>-<10 hex>`. */
export function newConsentId(at: Date): string {
  return `cns_${at.getTime()}-${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`
}

/** Suppressed addresses: `suppressions/{emailHash}`. */
export const SUPPRESSIONS_PREFIX = 'suppressions'

/** A webhook message already handled: `webhook-receipts/{source}/{message id}`. */
export function webhookReceiptKey(source: string, messageId: string): string {
  return `webhook-receipts/${source}/${messageId}`
}

/** When the last double opt-in link went to an address: `confirmation-sends/{emailHash}`. */
export function confirmationSendKey(emailHash: string): string {
  return `confirmation-sends/${emailHash}`
}

/**
 * The index format of each collection whose format changed since v1: its partitions (and so the
 * keys of its bases) changed, so its index is a new set of keys, rebuilt in the background. v2 of
 * `notif-history`: 17 partitions by id instead of one.
 */
const INDEX_FORMATS: Readonly<Record<string, number>> = { 'notif-history': 2 }

function indexFolder(collection: string): string {
  return `index/${collection}/v${INDEX_FORMATS[collection] ?? 1}/`
}

/**
 * Keys of the per-partition record indexes (storage/listing/recordIndex.ts). The format version
 * is part of the key: a new format is a new set of keys, and an old one is simply not read.
 * `snapshots/` and `journal/` (the listing cache of older deploys) are no longer read; they are
 * deleted (LEGACY_LISTING_PREFIXES).
 */
export const indexKeys = {
  bases: (collection: string) => `${indexFolder(collection)}p/`,
  base: (collection: string, partition: string) => `${indexFolder(collection)}p/${partition}`,
  complete: (collection: string) => `${indexFolder(collection)}complete`,
  folder: indexFolder,
  deltas: (collection: string) => `index-deltas/${collection}/`,
  partitionDeltas: (collection: string, partition: string) =>
    `index-deltas/${collection}/${partition}/`,
  rebuildClaim: 'index-rebuild/claim',
  verifyCursor: 'index-rebuild/verified',
}
/** What the blobs of a time view hold: time segments of records, search rows, directories. */
export type TimeBlobKind = 's' | 'q' | 'd'

/**
 * Keys of the time view of a list (storage/listing/timeView.ts): one catalog blob names every
 * blob of the view, each written once under a new key (a change writes new blobs and then the
 * catalog by compare-and-swap), so a reader holding a blob never needs to read it again.
 */
export const timeViewKeys = {
  folder: (collection: string) => `index/${collection}/t1/`,
  catalog: (collection: string) => `index/${collection}/t1/catalog`,
  /** A new blob of `kind`, named by its writer's clock `at` (ms) and a random part. */
  blob: (collection: string, kind: TimeBlobKind, at: number) =>
    `index/${collection}/t1/${kind}/${String(at).padStart(15, '0')}-${crypto.randomUUID().slice(0, 8)}`,
  /** When the blob under `key` was written (ms), or null when it is no blob of a time view. */
  writtenAt: (key: string): number | null => {
    const match = /\/t1\/[sqd]\/(\d{15})-[0-9a-f]{8}$/.exec(key)
    return match ? Number(match[1]) : null
  },
}

/**
 * Keys of the counters of a collection (storage/listing/recordCounters.ts): `shards` blobs
 * changed by compare-and-swap at every write. `layout` names what they count by (a digest of the
 * dimensions), so counting by something new starts new counters instead of misreading old ones.
 */
export const counterKeys = {
  shard: (collection: string, layout: string, shard: number) =>
    `counters/${collection}/${layout}/${shard}`,
}

/**
 * What older deploys left of their listings, read by nothing now; an erase and the retention
 * purge delete it (storage/legacyListing.ts). `copies`: blobs holding whole records (personal
 * data): the listing snapshots (`snapshots/{collection}`) and the history index
 * of format v1 (one partition). `names`: blobs holding record keys only: the change journal
 * (`journal/{collection}/{hour}/{entry}`) and the v1 history index's deltas.
 */
export const LEGACY_LISTING_PREFIXES = {
  copies: ['snapshots/', 'index/notif-history/v1/'],
  names: ['journal/', 'index-deltas/notif-history/all/'],
} as const

/** Prefix of stock records: `stock/{productSlug}`, `stock/{productSlug}~{variantId}`. */
export const STOCK_PREFIX = 'stock/'

/** The stock record of a product without variants, or of one variant (`targetSegment`). */
export function stockKey(productSlug: string, variant?: string): string {
  return `${STOCK_PREFIX}${targetSegment(productSlug, variant)}`
}

/** The signed webhooks whose events are marked as seen: the stock webhook and the order webhook. */
export type WebhookSource = 'stock' | 'order'

/**
 * Keys of the events a signed webhook delivered: `{source}-events/{eventId}` (the mark: arrived,
 * applied) and `{source}-event-days/{YYYY-MM-DD}/{eventId}` (the UTC day it arrived, for the
 * purge).
 */
export function webhookEventKeys(source: WebhookSource) {
  const marks = `${source}-events/`
  const days = `${source}-event-days/`
  return {
    marks,
    days,
    mark: (eventId: string) => `${marks}${eventId}`,
    day: (day: string, eventId: string) => `${days}${day}/${eventId}`,
  }
}

/** The send lock of a product. */
export function sendLockKey(productSlug: string): string {
  return `send-locks/${productSlug}`
}

/** The claim of one subscriber by a notice. */
export function sendClaimKey(productSlug: string, subscriptionId: string): string {
  return `send-claims/${productSlug}/${subscriptionId}`
}

/** Where CSV exports of lists live (they copy records: an erase drops them all). */
export const EXPORTS_PREFIX = 'list-exports/'

/** Prefix of the spent export tickets. */
export const EXPORT_TICKETS_PREFIX = 'export-tickets/'

/** Keys of one CSV export of a list (admin/listExports.ts). */
export const exportKeys = {
  job: (exportId: string) => `${EXPORTS_PREFIX}${exportId}/job`,
  part: (exportId: string, part: number) => `${EXPORTS_PREFIX}${exportId}/parts/${part}`,
  /** A spent export ticket. */
  spentTicket: (nonce: string) => `${EXPORT_TICKETS_PREFIX}${nonce}`,
}

/** A new export id: `exp_<uuid>`. */
export function newExportId(): string {
  return `exp_${crypto.randomUUID()}`
}

/** Prefix of the scheduled restock sends: `scheduled-sends/{id}`. */
export const SCHEDULED_SENDS_PREFIX = 'scheduled-sends/'

/** A new scheduled send id: `sch_<uuid>`. */
export function newScheduledSendId(): string {
  return `sch_${crypto.randomUUID()}`
}

/** What the service knows of one LINE user, by `lineUserHash`: `line-contacts/{hash}`. */
export const LINE_CONTACTS_PREFIX = 'line-contacts/'

/** The contact record of a LINE user (`lineUserHash` of the id). */
export function lineContactKey(hash: string): string {
  return `${LINE_CONTACTS_PREFIX}${hash}`
}

/** A spent LINE Login state: `line-login-states/{nonce}`. */
export const LINE_LOGIN_STATES_PREFIX = 'line-login-states/'

/** The mark of a spent LINE Login state (its nonce). */
export function lineLoginStateKey(nonce: string): string {
  return `${LINE_LOGIN_STATES_PREFIX}${nonce}`
}
