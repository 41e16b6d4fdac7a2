import { z } from 'zod'

/**
 * The pieces the answer schemas share (responseSchemas.ts): times, counts, slugs, and the fields
 * that say a list skipped or is still rebuilding.
 */

// why: the format, not zod's long date-time pattern, repeated at every timestamp of the document
export const timestamp = z
  .string()
  .meta({ format: 'date-time', examples: ['2026-11-22T02:25:00.000Z'] })
export const count = z.int().min(0)
export const slug = z.string().meta({ examples: ['chasen-takayama'] })
/** A variant's id (docs/api.md "Variants"): unique in its product, named in its front matter. */
export const variantId = z.string().meta({ examples: ['ai'] })
export const unreadable = z.int().min(1).optional().meta({
  description:
    'Stored blobs that are not readable records (skipped and logged); absent when there are none.',
})

export const notificationId = z
  .string()
  .regex(/^notif_/)
  .meta({ examples: ['notif_6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'] })
export const deliveryMode = z.enum(['email', 'record-only']).nullable().meta({
  description: '`email` (Resend) or `record-only` (no provider, §4.8); null on older records.',
})

export const rebuilding = z.literal(true).optional().meta({
  description:
    'An index this answer is read from is missing and being rebuilt in the background: the answer holds what is indexed so far. Absent otherwise.',
})

/** The paging fields of a list paged by number (§4.3). */
export const paging = {
  total: count,
  page: z.int().min(1),
  pageSize: z.int().min(1).max(100),
  totalPages: count,
}
