/*
 * A term's postings as the search data file stores them: per field `fieldId, count`, then the
 * `count` short ids as gaps from the previous one (the first from 0), then the `count`
 * frequencies, every number an unsigned LEB128 varint (7 bits a byte, low bits first).
 * why: as plain u32s the postings were over half of the zipped search function of a large site;
 * gaps of ascending ids and frequencies are mostly one byte, which the packager's deflate packs
 * well (docs/search.md, "Package size")
 */

/**
 * First byte of a term's bytes that stand for an earlier term's postings (`encodeAlias`); a field
 * id is always smaller.
 * why: terms that always occur together have the same postings (the bigrams of a katakana
 * word: ドリ, リッ and ッパ of ドリッパー): stored and decoded once
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
  const reader = new VarintReader(bytes, 1)
  const original = reader.next()
  return reader.position === bytes.length ? original : Number.NaN
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
  const reader = new VarintReader(bytes, 0)
  while (reader.position < bytes.length) {
    out[n++] = reader.next()
    const count = reader.next()
    out[n++] = count
    if (n + 2 * count > out.length) return null
    let id = 0
    // why: one-byte numbers (most) read inline, the reader's position in a local: a cold start
    // runs this before V8 compiles it, where a call per number cost most of the decoding (past
    // the end `byte` is undefined and the reader marks the bytes short)
    let at = reader.position
    for (let k = 0; k < count; k++) {
      const byte = bytes[at]!
      if (byte < 0x80) {
        at++
        id += byte
      } else {
        reader.position = at
        id += reader.next()
        at = reader.position
      }
      out[n++] = id
    }
    for (let k = 0; k < count; k++) {
      const byte = bytes[at]!
      if (byte < 0x80) {
        at++
        out[n++] = byte
      } else {
        reader.position = at
        out[n++] = reader.next()
        at = reader.position
      }
    }
    reader.position = at
    if (at > bytes.length) return null
  }
  return out.subarray(0, n)
}

/** Reads unsigned LEB128 varints from `bytes`, one after another from `position`. */
class VarintReader {
  readonly #bytes: Uint8Array
  /** Where the next varint starts; past the end (length + 1) once a read ran out of bytes. */
  position: number

  constructor(bytes: Uint8Array, position: number) {
    this.#bytes = bytes
    this.position = position
  }

  /** The varint at `position`, moving past it; past the end, 0 with `position` beyond the end. */
  next(): number {
    const bytes = this.#bytes
    let at = this.position
    if (at >= bytes.length) {
      this.position = bytes.length + 1
      return 0
    }
    let byte = bytes[at++]!
    if (byte < 0x80) {
      this.position = at
      return byte
    }
    let value = byte & 0x7f
    let scale = 0x80
    for (;;) {
      if (at >= bytes.length) {
        this.position = bytes.length + 1
        return 0
      }
      byte = bytes[at++]!
      value += (byte & 0x7f) * scale
      if (byte < 0x80) {
        this.position = at
        return value
      }
      scale *= 0x80
    }
  }
}
