import { deflateRawSync, inflateRawSync } from 'node:zlib'

/**
 * Text as the generated module stores it: raw deflate, base64.
 *
 * why: esbuild writes every non-ASCII character of a string literal as `\uXXXX` (6 bytes), so the
 * Japanese page text made the bundle ~3× its UTF-8 size, and V8 scans every byte of a module
 * on import. Packed, the text is ASCII and about a third of its UTF-8 size, and only what a
 * search needs is unpacked.
 */
export function packText(text: string): string {
  return deflateRawSync(text, { level: 9 }).toString('base64')
}

/** The text `packText` packed. */
export function unpackText(packed: string): string {
  return inflateRawSync(Buffer.from(packed, 'base64')).toString('utf8')
}
