import { z } from '../generated/zod.js'

/**
 * The request fields of a list paged by number (archive lists, the audit trail, restock notice
 * history): `page` (default 1) and `pageSize` (default 20, 1..100), §4.3 and D5.
 */

export const PAGE_INVALID = 'page must be a positive integer'
export const PAGE_SIZE_INVALID = 'pageSize must be between 1 and 100'
/** §4.3, §8. */
export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

/** `page` (default 1) and `pageSize` (default 20, 1..100) of a paged list (§4.3, D5). */
export const pagingFields = {
  page: z
    .number({ error: PAGE_INVALID })
    .int({ error: PAGE_INVALID })
    .min(1, { error: PAGE_INVALID })
    .nullish()
    .transform((value) => value ?? 1),
  pageSize: z
    .number({ error: PAGE_SIZE_INVALID })
    .int({ error: PAGE_SIZE_INVALID })
    .min(1, { error: PAGE_SIZE_INVALID })
    .max(MAX_PAGE_SIZE, { error: PAGE_SIZE_INVALID })
    .nullish()
    .transform((value) => value ?? DEFAULT_PAGE_SIZE),
}
