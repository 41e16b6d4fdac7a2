/*
 * A term's postings as the search data file stores them: per field `fieldId, count`, then the
 * `count` short ids as gaps from the previous one (the first from 0), then the `count`
 * frequencies, every number an unsigned LEB128 varint (7 bits a byte, low bits first).
 * why: as plain u32s the postings were 56 % of the zipped 20,000-page search function (25.9 of
 * 46 MB deflated); gaps of ascending ids and frequencies are mostly one byte, and the packager's
 * deflate then packs them to 7.7 MB (docs/search.md, "Package size")
 */

/** The encoded bytes of one term's postings in the decoded layout (packedIndex.ts). */
export function encodePostings(postings: Uint32Array, out: number[]): void {
  for (let i = 0; i < postings.length;) {
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
  let at = 0
  let n = 0
  const next = (): number => {
    let value = 0
    let shift = 0
    for (;;) {
      // why: past the end reads 0, which ends the number; the caller sees `at` beyond the end
      const byte = bytes[at++] ?? 0
      value += (byte & 0x7f) * 2 ** shift
      if (byte < 0x80) return value
      shift += 7
    }
  }
  while (at < bytes.length) {
    out[n++] = next()
    const count = next()
    out[n++] = count
    if (n + 2 * count > out.length) return null
    let id = 0
    for (let k = 0; k < count; k++) out[n++] = id += next()
    for (let k = 0; k < count; k++) out[n++] = next()
    if (at > bytes.length) return null
  }
  return out.subarray(0, n)
}
