/*
 * A term's postings as the search data file stores them: per field `fieldId, count`, then the
 * `count` short ids as gaps from the previous one (the first from 0), then the `count`
 * frequencies, every number an unsigned LEB128 varint (7 bits a byte, low bits first).
 * why: as plain u32s the postings were 56 % of the zipped 20,000-page search function (25.9 of
 * 46 MB deflated); gaps of ascending ids and frequencies are mostly one byte, and the packager's
 * deflate then packs them to 7.7 MB (docs/search.md, "Package size")
 */

/**
 * First byte of a term's bytes that stand for an earlier term's postings (`encodeAlias`); a field
 * id is always smaller.
 * why: terms that always occur together have the same postings (the bigrams of a katakana
 * word: ドリ, リッ and ッパ of ドリッパー, 44 KB each at 50,000 pages): stored and decoded once
 */
const ALIAS = 0x7f

/** A term's bytes standing for the postings of term `original` (an earlier one). */
export function encodeAlias(original: number, out: number[]): void {
  out.push(ALIAS)
  pushVarint(out, original)
}

/** The term whose postings `bytes` stand for (encodeAlias), -1 for postings, NaN if damaged. */
export function aliasOf(bytes: Uint8Array): number {
  if (bytes[0] !== ALIAS) return -1
  position = 1
  const original = readVarint(bytes)
  return position === bytes.length ? original : Number.NaN
}

/** The encoded bytes of one term's postings in the decoded layout (packedIndex.ts). */
export function encodePostings(postings: Uint32Array, out: number[]): void {
  for (let i = 0; i < postings.length;) {
    if (postings[i]! >= ALIAS) throw new Error(`Field id ${postings[i]} is too large to encode`)
    const count = postings[i + 1]!
    pushVarint(out, postings[i]!)
    pushVarint(out, count)
    let previous = 0
    for (let k = i + 2; k < i + 2 + count; k++) {
      pushVarint(out, postings[k]! - previous)
      previous = postings[k]!
    }
    for (let k = i + 2 + count; k < i + 2 + 2 * count; k++) pushVarint(out, postings[k]!)
    i += 2 + 2 * count
  }
}

function pushVarint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80)
    value >>>= 7
  }
  out.push(value)
}

/**
 * One term's postings decoded from `bytes` (see encodePostings) into the layout packedIndex.ts
 * reads; null when the bytes do not decode to whole fields (a damaged file).
 */
export function decodePostings(bytes: Uint8Array): Uint32Array | null {
  // why: every number takes at least one byte, so this many always suffice
  const out = new Uint32Array(bytes.length)
  let n = 0
  position = 0
  while (position < bytes.length) {
    out[n++] = readVarint(bytes)
    const count = readVarint(bytes)
    out[n++] = count
    if (n + 2 * count > out.length) return null
    let id = 0
    // why: one-byte numbers (most) read inline: a cold start runs this before V8 compiles it,
    // where a call per number cost most of the decoding (past the end `byte` is undefined and
    // readVarint marks the bytes short)
    for (let k = 0; k < count; k++) {
      const byte = bytes[position]!
      if (byte < 0x80) {
        position++
        id += byte
      } else {
        id += readVarint(bytes)
      }
      out[n++] = id
    }
    for (let k = 0; k < count; k++) {
      const byte = bytes[position]!
      if (byte < 0x80) {
        position++
        out[n++] = byte
      } else {
        out[n++] = readVarint(bytes)
      }
    }
    if (position > bytes.length) return null
  }
  return out.subarray(0, n)
}

// why: a module variable, not a closure or a returned pair: decoding is a cold start's work
// per term, and this keeps it a few nanoseconds a number
let position = 0

/** The varint at `position` (moved past it); past the end, 0 with `position` beyond the end. */
function readVarint(bytes: Uint8Array): number {
  if (position >= bytes.length) {
    position = bytes.length + 1
    return 0
  }
  let byte = bytes[position++]!
  if (byte < 0x80) return byte
  let value = byte & 0x7f
  let scale = 0x80
  for (;;) {
    if (position >= bytes.length) {
      position = bytes.length + 1
      return 0
    }
    byte = bytes[position++]!
    value += (byte & 0x7f) * scale
    if (byte < 0x80) return value
    scale *= 0x80
  }
}
