/**
 * The records of a segment blob (timeView.ts), parsed one at a time from its JSON bytes: a
 * reader that walks a whole list (an export) then holds a segment as bytes, outside the
 * JavaScript heap, and one record of it as an object, instead of the parsed segment, whose
 * thousand records would outlive many young-generation collections while the families are
 * merged and be copied into the old generation as they go.
 */

const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c

/** How a segment blob starts and ends as `writePacked` writes it (JSON.stringify, no spaces). */
const HEAD = Buffer.from('{"format":1,"records":[')
const TAIL = Buffer.from(']}')

/** The bytes do not hold a segment's records. */
export class NotASegmentError extends Error {
  override name = 'NotASegmentError'
}

/** Where the JSON value that starts at `start` (an object or array) ends, one past it. */
function valueEnd(json: Buffer, start: number): number {
  let depth = 0
  let inString = false
  for (let at = start; at < json.length; at++) {
    const byte = json[at]
    if (inString) {
      if (byte === BACKSLASH) at += 1
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth += 1
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1
      if (depth === 0) return at + 1
    }
  }
  throw new NotASegmentError('a record is cut short')
}

/**
 * The records of a segment's JSON, in order, each parsed when it is reached. A blob of
 * another shape is parsed whole and its records answered; NotASegmentError when it is not
 * JSON or holds no records.
 */
export function* segmentRecords(json: Buffer): Generator<unknown> {
  const head = json.subarray(0, HEAD.length)
  const tail = json.subarray(json.length - TAIL.length)
  if (!head.equals(HEAD) || !tail.equals(TAIL)) {
    yield* parsedWhole(json)
    return
  }
  const last = json.length - TAIL.length
  let at = HEAD.length
  while (at < last) {
    if (json[at] !== OPEN_BRACE) throw new NotASegmentError('a record is not an object')
    const end = valueEnd(json, at)
    let record: unknown
    try {
      record = JSON.parse(json.toString('utf8', at, end))
    } catch {
      throw new NotASegmentError('a record is not JSON')
    }
    yield record
    at = end
    if (at < last && json[at++] !== COMMA) throw new NotASegmentError('records are not a list')
  }
}

function parsedWhole(json: Buffer): unknown[] {
  let value: unknown
  try {
    value = JSON.parse(json.toString('utf8'))
  } catch {
    throw new NotASegmentError('not JSON')
  }
  const records = (value as { records?: unknown } | null)?.records
  if (!Array.isArray(records)) throw new NotASegmentError('no records')
  return records
}
