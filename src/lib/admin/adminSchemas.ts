import { z } from '../../generated/zod.js'
import { pagingFields } from '../paging.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'

/**
 * Request bodies of the admin record endpoints. The endpoint wrapper answers the FIRST issue's
 * message, so each schema checks in the order that makes the documented message come first
 * (§7, D4, D5, D6): shape before value, missing fields before an unknown status.
 */

export const MISSING_STATUS_FIELDS = 'Missing required fields: id, productSlug, status'
export const IDS_REQUIRED = 'ids array is required'
export const IDS_EMPTY = 'ids array cannot be empty'
export const IDS_TOO_MANY = 'ids array cannot exceed 100 items'
export const IDS_ITEM_INVALID = 'Each item needs a string id and productSlug'
export const LIST_PAGE_SIZE_INVALID = 'pageSize must be between 1 and 500'
export const CURSOR_INVALID = 'cursor is not valid for this list'
export const SEARCH_INVALID = 'q must be a string of at most 200 characters'

/** D5: most items one bulk request may name. */
export const MAX_BULK_ITEMS = 100
/** D6: longest admin note. */
export const MAX_NOTES_LENGTH = 2000
/** Active lists: largest page, and the page size when only `cursor` or `q` is sent. */
export const MAX_LIST_PAGE_SIZE = 500
export const DEFAULT_LIST_PAGE_SIZE = 50
/** Longest search text of the lists (`q`, after trimming), as the site search's (§8). */
export const MAX_SEARCH_LENGTH = 200

/** Longest piece of a request value echoed in an error text, in characters. */
export const MAX_ECHOED_LENGTH = 50

/** `value` as shown inside an error text: as is up to 50 characters, else its first 50 and `…`. */
export function echoedValue(value: string): string {
  const characters = [...value]
  if (characters.length <= MAX_ECHOED_LENGTH) return value
  return `${characters.slice(0, MAX_ECHOED_LENGTH).join('')}…`
}

/** D4 `Invalid status: <value>`; non-strings as JSON, and long values cut (echoedValue). */
export function invalidStatusMessage(value: unknown): string {
  return `Invalid status: ${echoedValue(typeof value === 'string' ? value : String(JSON.stringify(value)))}`
}

/** One of `statuses`, else `Invalid status: <value>` (D4). */
function knownStatus<S extends string>(statuses: readonly [S, ...S[]]) {
  return z.enum(statuses, { error: (issue) => invalidStatusMessage(issue.input) })
}

/** An optional text filter; `null` and `''` mean "no filter" (what a dashboard's "All" sends). */
function optionalFilter(message: string) {
  return z
    .string({ error: message })
    .nullish()
    .transform((value) => value || undefined)
}

export const EXPORT_LIST_INVALID =
  'list must be one of reservations, notify, reservations-archive, notify-archive'
export const EXPORT_ID_INVALID = 'exportId is required'

/** `q`: the lists' search (id, name or e-mail); trimmed; `null` and `''` mean "no search". */
const searchField = z
  .string({ error: SEARCH_INVALID })
  .trim()
  .max(MAX_SEARCH_LENGTH, { error: SEARCH_INVALID })
  .nullish()
  .transform((value) => value || undefined)

/**
 * `variant`: only records of this variant (its id) of the product; `null` and `''` mean "no
 * filter". Sent with `productSlug` (a variant id names a variant of one product).
 */
const variantFilter = optionalFilter('variant must be a string')

/** 400 when a `variant` filter comes without the `productSlug` it belongs to. */
export const VARIANT_WITHOUT_PRODUCT = 'variant must be sent with productSlug'

/** A filter object whose `variant` needs its `productSlug`. */
function variantNeedsProduct<T extends { productSlug?: string; variant?: string }>(
  filters: T,
  context: z.RefinementCtx,
): void {
  if (filters.variant !== undefined && filters.productSlug === undefined) {
    context.addIssue({ code: 'custom', message: VARIANT_WITHOUT_PRODUCT, path: ['variant'] })
  }
}

/**
 * Active lists (§4.1, §4.2): optional `status` (one of `statuses`), `productSlug` and `variant`;
 * and the paging fields: `pageSize` (1..500), `cursor` (from a previous page's
 * `nextCursor`), `q`. Without any of the three the answer is the whole list, as the spec says.
 */
export function listFiltersSchema<S extends string>(statuses: readonly [S, ...S[]]) {
  return z
    .object({
      status: z.preprocess(
        (value) => (value === '' || value === null ? undefined : value),
        knownStatus(statuses).optional(),
      ),
      productSlug: optionalFilter('productSlug must be a string'),
      variant: variantFilter,
      pageSize: z
        .number({ error: LIST_PAGE_SIZE_INVALID })
        .int({ error: LIST_PAGE_SIZE_INVALID })
        .min(1, { error: LIST_PAGE_SIZE_INVALID })
        .max(MAX_LIST_PAGE_SIZE, { error: LIST_PAGE_SIZE_INVALID })
        .nullish()
        .transform((value) => value ?? undefined),
      cursor: z
        .string({ error: CURSOR_INVALID })
        .min(1, { error: CURSOR_INVALID })
        .max(1000, { error: CURSOR_INVALID })
        .nullish()
        .transform((value) => value ?? undefined),
      q: searchField,
    })
    .superRefine(variantNeedsProduct)
}

/**
 * Archive lists (§4.3, D3, D5). The status filter is any text, matched as stored, because
 * archived records may carry legacy statuses (`responded`, `reserved`). Numbers must be JSON
 * numbers: `"2"` is refused like any other non-integer.
 */
export const archiveListSchema = z
  .object({
    ...pagingFields,
    productSlug: optionalFilter('productSlug must be a string'),
    variant: variantFilter,
    status: optionalFilter('status must be a string'),
    q: searchField,
  })
  .superRefine(variantNeedsProduct)

const requiredText = z.string({ error: MISSING_STATUS_FIELDS }).min(1, MISSING_STATUS_FIELDS)

// why: a first pass for presence only, so a missing field is reported before any other problem
const statusFieldsPresent = z.looseObject({
  id: requiredText,
  productSlug: requiredText,
  status: requiredText,
})

/**
 * §4.4, §4.5: `{id, productSlug, status}` (+ `notes` and `shareNote` for reservations, D6). Order: a missing
 * field, then an id or productSlug that cannot name a record (UNUSABLE_ID_MESSAGE), then an
 * unknown status, then notes.
 */
export function statusUpdateSchema<S extends string>(
  statuses: readonly [S, ...S[]],
  options: { notes: boolean },
) {
  const checked = z.object({
    id: usableRecordId(),
    productSlug: usableRecordId(),
    status: knownStatus(statuses),
  })
  if (!options.notes) return statusFieldsPresent.pipe(checked)
  return statusFieldsPresent.pipe(
    checked.extend({
      notes: z
        .string({ error: 'notes must be a string (send "" to clear the notes)' })
        .max(MAX_NOTES_LENGTH, { error: `notes must be at most ${MAX_NOTES_LENGTH} characters` })
        .optional(),
      shareNote: z.boolean({ error: 'shareNote must be true or false' }).optional(),
    }),
  )
}

export interface StatusUpdateRequest {
  id: string
  productSlug: string
  status: string
  /** Replaces the notes when given; '' clears them; omitted keeps them (§4.5). */
  notes?: string
  /**
   * Reservations: show the notes in the customer's status e-mails, from this change on; stored
   * with the record. Omitted: the stored choice is kept (none: the notes stay in the shop).
   */
  shareNote?: boolean
}

const bulkItem = z.object(
  {
    id: z.string({ error: IDS_ITEM_INVALID }).min(1, IDS_ITEM_INVALID),
    productSlug: z.string({ error: IDS_ITEM_INVALID }).min(1, IDS_ITEM_INVALID),
  },
  { error: IDS_ITEM_INVALID },
)

const usableBulkItem = z.object({ id: usableRecordId(), productSlug: usableRecordId() })

/**
 * Bulk archive / unarchive / delete (§4.6, §4.7, D3, D5): nothing changes unless every item is
 * valid. D5's text for any item without a non-empty string id / productSlug comes first; then
 * UNUSABLE_ID_MESSAGE for an id that cannot name a record (whitespace, `/`, control characters).
 */
export const bulkIdsSchema = z.object({
  ids: z
    .array(z.unknown(), { error: IDS_REQUIRED })
    .min(1, IDS_EMPTY)
    .max(MAX_BULK_ITEMS, IDS_TOO_MANY)
    .pipe(z.array(bulkItem))
    .pipe(z.array(usableBulkItem)),
})

/** A string that passes isUsableRecordId, else 400 UNUSABLE_ID_MESSAGE. */
function usableRecordId() {
  return z
    .string({ error: UNUSABLE_ID_MESSAGE })
    .refine(isUsableRecordId, { error: UNUSABLE_ID_MESSAGE })
}

/**
 * POST /api/admin/exports: which list (`list`) and its filters, as the list endpoints take them.
 * The status of an active list is checked against its statuses by the service (listExports.ts).
 */
export const exportRequestSchema = z
  .object({
    list: z.enum(['reservations', 'notify', 'reservations-archive', 'notify-archive'], {
      error: EXPORT_LIST_INVALID,
    }),
    status: optionalFilter('status must be a string'),
    productSlug: optionalFilter('productSlug must be a string'),
    variant: variantFilter,
    q: searchField,
  })
  .superRefine(variantNeedsProduct)

/** POST /api/admin/exports/status and the background run: `{exportId}`. */
export const exportIdSchema = z.object({
  exportId: z.string({ error: EXPORT_ID_INVALID }).min(1, { error: EXPORT_ID_INVALID }),
})
