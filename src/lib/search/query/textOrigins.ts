import { normalizeSearchText } from '../textNormalization.js'
import { JOINS_PREVIOUS, type CharacterOutputs } from './characterOutputs.js'

/*
 * Text as folded terms are found in (normalised, or as it is where that finds the same), with
 * the position in the original text of each of its positions, so that a match found there is
 * marked in the original.
 */

/** Where a position of searched text comes from in the original text. */
export interface Origins {
  at(position: number): number
}

/** Positions one for one: the text is searched as it is. */
export const IDENTITY: Origins = { at: (position) => position }

/** Text to find folded terms in, with the original position of each of its positions. */
export interface Searchable {
  text: string
  origins: Origins
  /**
   * Whether a Latin term's word check looks at its neighbours normalised (lightWordCharAt): the
   * text is searched as it is for what lightly normalised text holds (see wordChecksOnly).
   */
  lightNeighbours?: boolean
}

// why: a combining mark never follows white space or Japanese punctuation (。、！？), so cutting
// there is safe. Written as escapes: one character past ASCII in the bundle makes V8 read all its
// source as two-byte text, slower to parse at a cold start (tests/foundation/bundles.test.ts)
const PIECE_END = /(?<=[\s\u3002\u3001\uff01\uff1f])/u

/**
 * `text` as it is when `plain`, else normalised whole with its origins.
 * why: plain text (most pages) is searched as it is, so nothing is normalised or copied; the
 * copies of normalised pages were most of an answer's garbage
 */
export function searchable(text: string, plain: boolean): Searchable {
  if (plain) return { text, origins: IDENTITY }
  const { normalized, origins } = normalizeWithOrigins(text)
  return { text: normalized, origins }
}

/**
 * The normalized text plus, for each of its positions (and its end), the original position it
 * came from, so that a match found in normalized text can be marked in the original.
 */
function normalizeWithOrigins(text: string): { normalized: string; origins: Origins } {
  const fast = normalizeSearchText(text)
  // why: the usual case (case folding, full-width ASCII) keeps positions one to one; where
  // nothing joins, no character shrinks, so the same length means one for one (an expanding ǅ
  // beside a joining か\u3099 keeps the length too)
  if (fast.length === text.length && !JOINS_PREVIOUS.test(text)) {
    return { normalized: fast, origins: IDENTITY }
  }
  let normalized = ''
  const origins: number[] = []
  let pieceStart = 0
  // why: one normalize call per sentence piece; only pieces that change length (℃ → °c,
  // … → ...) are mapped character by character
  for (const piece of text.split(PIECE_END)) {
    const normalizedPiece = normalizeSearchText(piece)
    if (normalizedPiece.length === piece.length && !JOINS_PREVIOUS.test(piece)) {
      for (let i = 0; i < piece.length; i++) origins.push(pieceStart + i)
      normalized += normalizedPiece
    } else {
      normalized += mapCharacters(piece, pieceStart, origins)
    }
    pieceStart += piece.length
  }
  origins.push(text.length)
  return { normalized, origins: { at: (position) => origins[position]! } }
}

function mapCharacters(piece: string, offset: number, origins: number[]): string {
  let normalized = ''
  let start = 0
  while (start < piece.length) {
    let end = start + (piece.codePointAt(start)! > 0xffff ? 2 : 1)
    while (end < piece.length && JOINS_PREVIOUS.test(piece[end]!)) end++
    const normalizedChar = normalizeSearchText(piece.slice(start, end))
    for (let i = 0; i < normalizedChar.length; i++) origins.push(offset + (i === 0 ? start : end))
    normalized += normalizedChar
    start = end
  }
  return normalized
}

/**
 * `text` with only its characters that are not plain normalised, each on its own, and the
 * original position of each position; null when one of them normalises by its neighbours.
 * why: the term patterns find plain characters as they are, and a character that neither joins
 * its neighbour nor lower-cases or composes by it normalises within a text as it does alone, so
 * this finds what normalising the whole text finds, at the cost of a look at the few characters
 * that are not plain (windows normalised around each were most of such a page's excerpt)
 */
export function lightlyNormalized(outputs: CharacterOutputs, text: string): Searchable | null {
  const { notPlain } = outputs
  notPlain.lastIndex = 0
  let odd = notPlain.exec(text)
  if (!odd) return { text, origins: IDENTITY }
  let light = ''
  let copied = 0
  // why: per changed character, where its output starts in `light`, how long it is, where the
  // character is in `text` and its length there
  const changes: number[] = []
  for (; odd; odd = notPlain.exec(text)) {
    const at = odd.index
    const code = text.codePointAt(at)!
    const { normalized, light: alone } = outputs.of(code)
    if (!alone) return null
    const size = code > 0xffff ? 2 : 1
    if (size === 2) notPlain.lastIndex = at + 2
    if (normalized.length === size && normalized === text.slice(at, at + size)) continue
    light += text.slice(copied, at)
    changes.push(light.length, normalized.length, at, size)
    light += normalized
    copied = at + size
  }
  if (changes.length === 0) return { text, origins: IDENTITY }
  light += text.slice(copied)
  return { text: light, origins: { at: (position) => lightOrigin(changes, position) } }
}

/**
 * Where a position of lightly normalised text comes from: as normalising piece by piece maps it
 * (normalizeWithOrigins), a changed character's first output character to its start, the others
 * to its end; a character keeping its length, one for one.
 */
function lightOrigin(changes: readonly number[], position: number): number {
  let shift = 0
  for (let i = 0; i < changes.length; i += 4) {
    const start = changes[i]!
    if (position < start) break
    const length = changes[i + 1]!
    const at = changes[i + 2]!
    const size = changes[i + 3]!
    if (position < start + length) {
      if (length === size) return at + (position - start)
      return position === start ? at : at + size
    }
    shift = at + size - (start + length)
  }
  return position + shift
}
