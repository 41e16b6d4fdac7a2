import { isCjkTerm } from '../terms/cjkTokenizer.js'
import { normalizeSearchText } from '../textNormalization.js'
import { escapeHtml } from '../../htmlEscape.js'

/** A half-open range `[start, end)` of UTF-16 positions in the original text. */
export type TextRange = readonly [start: number, end: number]

const WORD_CHAR = /[\p{L}\p{N}]/u
type Origins = { at(position: number): number }
const IDENTITY: Origins = { at: (position) => position }
// why: a combining mark never follows white space or Japanese punctuation, so cutting there is safe
const PIECE_END = /(?<=[\s。、！？])/u
// why: NFKC joins a half-width kana with a following half-width (semi-)voiced mark
const JOINS_PREVIOUS = /[\p{M}\uFF9E\uFF9F]/u

/**
 * Where the matched terms occur in `text`, merged and sorted. Terms are normalized (NFKC,
 * lower-case) like the index; Latin terms match whole words only (`tea` not in `steam`),
 * Japanese terms anywhere.
 */
export function findMatchRanges(text: string, terms: readonly string[]): TextRange[] {
  const { normalized, origins } = normalizeWithOrigins(text)
  const ranges: Array<[number, number]> = []
  for (const term of new Set(terms)) {
    for (let at = indexOfTerm(normalized, term, 0); at !== -1;) {
      ranges.push([origins.at(at), origins.at(at + term.length)])
      at = indexOfTerm(normalized, term, at + 1)
    }
  }
  return mergeRanges(ranges)
}

/** Where the first match of `terms` starts in `text` (see findMatchRanges), or null. */
export function findFirstMatch(text: string, terms: readonly string[]): number | null {
  const { normalized, origins } = normalizeWithOrigins(text)
  let first: number | null = null
  for (const term of terms) {
    const at = indexOfTerm(normalized, term, 0)
    if (at !== -1 && (first === null || at < first)) first = at
  }
  return first === null ? null : origins.at(first)
}

/** HTML with `<mark>` around each range and every other character escaped. */
export function markRanges(text: string, ranges: readonly TextRange[]): string {
  let html = ''
  let position = 0
  for (const [start, end] of ranges) {
    html += escapeHtml(text.slice(position, start))
    html += `<mark>${escapeHtml(text.slice(start, end))}</mark>`
    position = end
  }
  return html + escapeHtml(text.slice(position))
}

/** `text` as HTML with matched terms marked. */
export function highlight(text: string, terms: readonly string[]): string {
  return markRanges(text, findMatchRanges(text, terms))
}

/** Next occurrence of `term` from `from`; a Latin term only as a whole word. */
function indexOfTerm(normalized: string, term: string, from: number): number {
  if (!term) return -1
  const wholeWord = !isCjkTerm(term)
  for (let at = normalized.indexOf(term, from); at !== -1; at = normalized.indexOf(term, at + 1)) {
    const end = at + term.length
    if (!wholeWord || (!isLatinWordChar(normalized[at - 1]) && !isLatinWordChar(normalized[end]))) {
      return at
    }
  }
  return -1
}

function isLatinWordChar(char: string | undefined): boolean {
  return char !== undefined && WORD_CHAR.test(char) && !isCjkTerm(char)
}

function mergeRanges(ranges: Array<[number, number]>): TextRange[] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: Array<[number, number]> = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  return merged
}

/**
 * The normalized text plus, for each of its positions (and its end), the original position it
 * came from, so that a match found in normalized text can be marked in the original.
 */
function normalizeWithOrigins(text: string): { normalized: string; origins: Origins } {
  const fast = normalizeSearchText(text)
  // why: the usual case (case folding, full-width ASCII) keeps positions one to one
  if (fast.length === text.length) return { normalized: fast, origins: IDENTITY }
  let normalized = ''
  const origins: number[] = []
  let pieceStart = 0
  // why: one normalize call per sentence piece; only pieces that change length (℃ → °c,
  // … → ...) are mapped character by character
  for (const piece of text.split(PIECE_END)) {
    const normalizedPiece = normalizeSearchText(piece)
    if (normalizedPiece.length === piece.length) {
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
