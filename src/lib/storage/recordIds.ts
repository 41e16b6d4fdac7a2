/**
 * The one rule for a record id or product slug: it must be usable as one segment of a blob key.
 * The repositories build keys only from such segments, and the endpoints refuse anything else at
 * once with a 400 (status updates, bulk items, unsubscribe tokens), so a bad id never travels to
 * the store (where a `" "` id is slow to fail and ends as a per-item failure).
 */

/** Longest id or productSlug accepted, in UTF-16 units (generated ids are under 60). */
export const MAX_RECORD_ID_LENGTH = 200

/**
 * Longest id or productSlug accepted, in bytes URL-encoded (a Japanese character is 9): the
 * local Blobs server stores each key segment as a file name of at most 255 bytes, and Netlify's
 * key limit (600 bytes UTF-8) holds for a prefix and two such segments.
 */
export const MAX_RECORD_ID_ENCODED_BYTES = 255

/** The 400 text for an id or productSlug that cannot name a record. */
export const UNUSABLE_ID_MESSAGE =
  'id and productSlug must be 1 to 200 characters (at most 255 bytes URL-encoded) with no spaces, slashes or control characters'

// why: whitespace (incl. U+3000), C* (control, format such as U+200B or bidi overrides, lone
// surrogates, private use, unassigned), line/paragraph separators, and the path separators
const FORBIDDEN = /[\s\p{C}\p{Zl}\p{Zp}/\\]/u

/** Whether `value` can name a record: 1–200 units and ≤ 255 bytes URL-encoded, no whitespace, control or format characters, no `/` `\`, not `.` / `..`. */
export function isUsableRecordId(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= MAX_RECORD_ID_LENGTH &&
    !FORBIDDEN.test(value) &&
    // why: after FORBIDDEN, so no lone surrogate reaches encodeURIComponent (it would throw)
    encodeURIComponent(value).length <= MAX_RECORD_ID_ENCODED_BYTES &&
    value !== '.' &&
    value !== '..'
  )
}
