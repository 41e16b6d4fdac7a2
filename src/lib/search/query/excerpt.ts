import { findFirstMatch, findMatchRanges, markRanges } from './highlight.js'
import { isPlainText } from '../textNormalization.js'

/** `excerpt_length` bounds and default (§4.11, §8, D11). */
const EXCERPT_LENGTH = { min: 50, max: 500, default: 200 } as const

const ELLIPSIS = '…'
// why: a little text before the match gives the reader its context
const LEAD_FRACTION = 1 / 4

export interface Excerpt {
  excerpt: string
  highlightedExcerpt: string
}

/**
 * At most `maxLength` characters of `text` around the first match of `terms` (from the start
 * when nothing matches), with `…` where text was cut, plus its highlighted HTML. `plain`:
 * whether `text` is plain (isPlainText), when known; `mayMatch`: false when the index tells that
 * the text holds none of the terms (the excerpt starts at the start, nothing is searched).
 */
export function makeExcerpt(
  text: string,
  terms: readonly string[],
  maxLength: number,
  plain = isPlainText(text),
  mayMatch = true,
): Excerpt {
  // why: stored page text is single-spaced by the build, so no clean-up is needed per search
  if (text.length <= maxLength) {
    return {
      excerpt: text,
      highlightedExcerpt: markRanges(text, findMatchRanges(text, terms, plain)),
    }
  }
  // why: a page found by its title alone was scanned whole for nothing (50 pages of 17 K
  // characters were most of a long-page answer)
  const firstMatch = (mayMatch ? findFirstMatch(text, terms, plain) : null) ?? 0
  const lead = Math.floor(maxLength * LEAD_FRACTION)
  let start = Math.max(0, Math.min(firstMatch - lead, text.length - maxLength))
  const cutAtStart = start > 0
  const cutAtEnd = start + maxLength < text.length
  let end = start + maxLength - (cutAtEnd ? 1 : 0)
  if (cutAtStart) start += 1
  start = avoidSplitPair(text, start, 1)
  end = avoidSplitPair(text, end, -1)
  const body = text.slice(start, end).trim()
  const before = cutAtStart ? ELLIPSIS : ''
  const after = cutAtEnd ? ELLIPSIS : ''
  return {
    excerpt: before + body + after,
    // why: a page that is not plain mostly has plain excerpts (① ℃ ㈱ are a few on a page), which
    // need no look for characters that take part in a match
    highlightedExcerpt:
      before + markRanges(body, findMatchRanges(body, terms, plain || isPlainText(body))) + after,
  }
}

/** Clamps `excerpt_length` into 50..500; a missing or non-numeric value gives 200 (D11). */
export function parseExcerptLength(raw: string | null): number {
  const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw)
  if (!Number.isFinite(value)) return EXCERPT_LENGTH.default
  return Math.min(EXCERPT_LENGTH.max, Math.max(EXCERPT_LENGTH.min, Math.floor(value)))
}

// why: never cut between the two halves of a character outside the BMP (emoji, rare kanji)
function avoidSplitPair(text: string, index: number, direction: 1 | -1): number {
  const code = text.charCodeAt(index)
  return code >= 0xdc00 && code <= 0xdfff ? index + direction : index
}
