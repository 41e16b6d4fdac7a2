/**
 * A chunk of search rows as an instance keeps it: the blob's JSON text as UTF-8 bytes (outside
 * the JavaScript heap) and where each row is in it, instead of a parsed array per row. `q` finds
 * its rows with `Buffer.indexOf` on the folded query's bytes and parses only the rows a page
 * needs; a row is never an object unless it is read (docs/architecture.md "Time view").
 *
 * The stored blob is unchanged: `{"format":1,"rows":[[key, family, time, id, text], …]}`, the
 * text of `JSON.stringify` (timeBlobs.ts `writePacked`).
 */

/** A search row: `[record key, family, sort time, id, search text]`. */
export type SearchRow = [string, number, string, string, string]

/** The rows of one chunk: its JSON bytes and, per row, where it is and what a scan needs. */
export interface ChunkRows {
  bytes: Buffer
  /** Offset of each row's `[`; the row ends at its text's closing quote + 2. */
  starts: Uint32Array
  /** Offset of each row's search text (after its opening quote). */
  texts: Uint32Array
  /** Offset of each row's closing quote of the search text. */
  textEnds: Uint32Array
  /** Each row's family. */
  families: Uint32Array
  /** 1 when the row's search text holds an escape other than `\n` (its text is then parsed to be compared). */
  escaped: Uint8Array
}

const PREFIX = Buffer.from('{"format":1,"rows":[')
const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN = 0x5b
const CLOSE = 0x5d

/** Escapes written as a backslash and one letter: `"`, `\\`, `b`, `f`, `n`, `r`, `t`. */
const SHORT_ESCAPES = [0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]

/**
 * Whether `JSON.stringify` writes `\u` + the code: a control character without a short escape,
 * or a lone surrogate (`next`: offset after it, where a low surrogate would follow a high one).
 */
function stringifyEscapes(code: number, bytes: Buffer, next: number): boolean {
  if (Number.isNaN(code)) return false
  if (code < 0x20) return ![0x08, 0x09, 0x0a, 0x0c, 0x0d].includes(code)
  if (code >= 0xdc00 && code <= 0xdfff) return true
  if (code < 0xd800 || code > 0xdbff) return false
  if (bytes[next] !== BACKSLASH || bytes[next + 1] !== 0x75) return true
  const low = hexAt(bytes, next + 2)
  return !(low >= 0xdc00 && low <= 0xdfff)
}

/** The 4 lower-case hex digits at `at` as a number (NaN when they are not). */
function hexAt(bytes: Buffer, at: number): number {
  const digits = bytes.toString('latin1', at, at + 4)
  return /^[0-9a-f]{4}$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN
}

/** Bytes each row costs in the instance beside its text (the offsets above). */
export const ROW_OVERHEAD = 17

/**
 * The rows of a chunk blob's JSON bytes, or null when they are not a chunk. Bytes written by
 * another serializer than `JSON.stringify` (another key order, spaces) are parsed and written
 * again in its form first.
 */
export function chunkRows(bytes: Buffer): ChunkRows | null {
  if (bytes.length >= PREFIX.length && bytes.subarray(0, PREFIX.length).equals(PREFIX)) {
    const scanned = scan(bytes)
    if (scanned) return scanned
  }
  let value: unknown
  try {
    value = JSON.parse(bytes.toString('utf8'))
  } catch {
    return null
  }
  const rows = (value as { rows?: unknown } | null)?.rows
  if (!Array.isArray(rows) || !rows.every(isSearchRow)) return null
  const canonical = Buffer.from(JSON.stringify({ format: 1, rows }))
  return canonical.subarray(0, PREFIX.length).equals(PREFIX) ? scan(canonical) : null
}

function isSearchRow(row: unknown): row is SearchRow {
  return (
    Array.isArray(row) &&
    row.length === 5 &&
    typeof row[0] === 'string' &&
    Number.isInteger(row[1]) &&
    row[1] >= 0 &&
    typeof row[2] === 'string' &&
    typeof row[3] === 'string' &&
    typeof row[4] === 'string'
  )
}

/** The offsets of every row, or null when the bytes are not rows of that exact shape. */
function scan(bytes: Buffer): ChunkRows | null {
  const starts: number[] = []
  const texts: number[] = []
  const textEnds: number[] = []
  const families: number[] = []
  const escaped: number[] = []
  const end = bytes.length
  let at = PREFIX.length
  // why: a string's end is its first quote not escaped; `escapes` tells whether one other than
  // `\n` was seen. Only escapes `JSON.stringify` writes are taken (others: -1), so a query's
  // bytes are found wherever its letters are.
  let escapes = false
  const stringEnd = (from: number): number => {
    escapes = false
    for (let i = from; i < end; i++) {
      const byte = bytes[i]
      if (byte === QUOTE) return i
      if (byte < 0x20) return -1
      if (byte !== BACKSLASH) continue
      const kind = bytes[i + 1]
      if (kind === 0x75) {
        if (!stringifyEscapes(hexAt(bytes, i + 2), bytes, i + 6)) return -1
        // why: past the 4 digits; the step below passes the `u`
        i += 4
      } else if (!SHORT_ESCAPES.includes(kind)) return -1
      if (kind !== 0x6e) escapes = true
      i += 1
    }
    return -1
  }
  const string = (from: number): number => {
    if (bytes[from] !== QUOTE) return -1
    return stringEnd(from + 1)
  }
  if (bytes[at] === CLOSE) at += 1
  else {
    for (;;) {
      if (bytes[at] !== OPEN) return null
      const start = at
      let close = string(at + 1)
      if (close < 0 || bytes[close + 1] !== COMMA) return null
      let family = 0
      let digits = 0
      for (at = close + 2; bytes[at] >= 0x30 && bytes[at] <= 0x39 && digits < 10; at++, digits++)
        family = family * 10 + bytes[at] - 0x30
      if (digits === 0 || bytes[at] !== COMMA) return null
      for (let field = 0; field < 2; field++) {
        close = string(at + 1)
        if (close < 0 || bytes[close + 1] !== COMMA) return null
        at = close + 1
      }
      const text = at + 2
      close = string(at + 1)
      if (close < 0 || bytes[close + 1] !== CLOSE) return null
      starts.push(start)
      texts.push(text)
      textEnds.push(close)
      families.push(family)
      escaped.push(escapes ? 1 : 0)
      at = close + 2
      if (bytes[at] === COMMA) at += 1
      else if (bytes[at] === CLOSE) {
        at += 1
        break
      } else return null
    }
  }
  if (bytes[at] !== 0x7d || at + 1 !== end) return null
  return {
    bytes,
    starts: Uint32Array.from(starts),
    texts: Uint32Array.from(texts),
    textEnds: Uint32Array.from(textEnds),
    families: Uint32Array.from(families),
    escaped: Uint8Array.from(escaped),
  }
}

/** How many rows the chunk holds. */
export function rowCount(chunk: ChunkRows): number {
  return chunk.starts.length
}

/** Row `index` of the chunk, parsed. */
export function rowAt(chunk: ChunkRows, index: number): SearchRow {
  return JSON.parse(
    chunk.bytes.toString('utf8', chunk.starts[index], chunk.textEnds[index] + 2),
  ) as SearchRow
}

/** Every row of the chunk, parsed (a rewrite of the chunk). */
export function rowsOf(chunk: ChunkRows): SearchRow[] {
  const rows: SearchRow[] = []
  for (let index = 0; index < rowCount(chunk); index++) rows.push(rowAt(chunk, index))
  return rows
}

/** A folded query prepared once for every chunk a page scans. */
export interface Needle {
  text: string
  /** Its bytes as they are written inside a JSON string. */
  bytes: Buffer
  /** Whether a match of `bytes` is a match of `text` wherever it is not right after a backslash. */
  plain: boolean
}

/** The query `text` (folded, non-empty) as chunks are scanned for it. */
export function needleOf(text: string): Needle {
  const written = JSON.stringify(text).slice(1, -1)
  // why: JSON writes a quote, a backslash, a control character or a lone surrogate as an
  // escape, which a row's bytes may hold otherwise: such a query parses every row
  return { text, bytes: Buffer.from(written), plain: written === text }
}

/**
 * The indexes of the rows whose search text contains the needle (null: every row), in order.
 * Candidates are found by the needle's bytes, looked for in each row's text alone; a row is
 * parsed only when the bytes cannot tell (an escape in its text, or a needle that JSON writes
 * with escapes).
 */
export function matchingRows(chunk: ChunkRows, needle: Needle | null): Uint32Array {
  const { bytes, starts, texts, textEnds, escaped } = chunk
  const count = starts.length
  const found = new Uint32Array(count)
  let matches = 0
  if (needle === null || !needle.plain) {
    for (let index = 0; index < count; index++) {
      if (needle === null || rowAt(chunk, index)[4].includes(needle.text)) found[matches++] = index
    }
    return found.subarray(0, matches)
  }
  let row = 0
  let at = count > 0 ? bytes.indexOf(needle.bytes, texts[0]) : -1
  while (at >= 0) {
    while (row + 1 < count && starts[row + 1] <= at) row += 1
    if (at < texts[row]) {
      at = bytes.indexOf(needle.bytes, texts[row])
      continue
    }
    // why: a hit past the text's closing quote is between rows (a needle holds no quote)
    const match =
      at < textEnds[row] &&
      (escaped[row]
        ? rowAt(chunk, row)[4].includes(needle.text)
        : bytes[at - 1] !== BACKSLASH || textHolds(chunk, row, needle, at + 1))
    if (match) found[matches++] = row
    if (row + 1 >= count) break
    at = bytes.indexOf(needle.bytes, texts[row + 1])
  }
  return found.subarray(0, matches)
}

/** Whether the row's text (plain: only `\n` escapes) holds the needle at or after `from`. */
function textHolds(chunk: ChunkRows, row: number, needle: Needle, from: number): boolean {
  for (
    let at = chunk.bytes.indexOf(needle.bytes, from);
    at >= 0 && at < chunk.textEnds[row];
    at = chunk.bytes.indexOf(needle.bytes, at + 1)
  ) {
    if (chunk.bytes[at - 1] !== BACKSLASH) return true
  }
  return false
}
