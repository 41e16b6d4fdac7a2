import { createHash } from 'node:crypto'
import { InvalidInputError } from '../errors.js'
import { CURSOR_INVALID } from './adminSchemas.js'

/**
 * The `cursor` of a paged active list: stateless, so any instance continues any page.
 * `base64url(JSON {t: sort time, i: id, f: filter digest})` of the last record of a page; the next
 * page is what sorts after that record, so records added or removed meanwhile neither repeat nor
 * shift the rest. The digest names the list and its filters: a cursor sent with other filters
 * (or to the other list) answers 400 instead of a page of something else. Not signed: a changed
 * cursor only moves the caller to another position of a list it may read anyway.
 */

/** Where a page ends: the sort key of its last record. */
export interface ListPosition {
  time: string
  id: string
}

/** The digest of a list and its filters (status, product, folded search). */
export function filterDigest(parts: readonly (string | undefined)[]): string {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((part) => part ?? null)))
    .digest('base64url')
    .slice(0, 16)
}

export function encodeCursor(position: ListPosition, digest: string): string {
  return Buffer.from(JSON.stringify({ t: position.time, i: position.id, f: digest })).toString(
    'base64url',
  )
}

/** The position a cursor names, or 400 `cursor is not valid for this list`. */
export function decodeCursor(cursor: string, digest: string): ListPosition {
  let fields: { t?: unknown; i?: unknown; f?: unknown }
  try {
    fields = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new InvalidInputError(CURSOR_INVALID)
  }
  if (
    typeof fields !== 'object' ||
    fields === null ||
    typeof fields.t !== 'string' ||
    typeof fields.i !== 'string' ||
    fields.f !== digest
  ) {
    throw new InvalidInputError(CURSOR_INVALID)
  }
  return { time: fields.t, id: fields.i }
}
