import { isPlainText } from '../textNormalization.js'
import { plainnessFor, type TextPlainness } from './characterOutputs.js'
import { findFirstMatch, type KnownFirstMatches } from './firstMatch.js'
import { findMatchRanges, markRanges } from './highlight.js'
import type { TextCaches } from './textCaches.js'

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
 * whether `text` is plain (TextPlainness), when known; `mayMatch`: false when the index tells that
 * the text holds none of the terms (the excerpt starts at the start, nothing is searched);
 * `known`: first matches of terms in `text` found before (findFirstMatch), used and added to;
 * `spellings`: the pairs the text writes in more than one way, when listed (findFirstMatch).
 */
export function makeExcerpt(
  caches: TextCaches,
  text: string,
  terms: readonly string[],
  maxLength: number,
  plain: TextPlainness = isPlainText(text),
  mayMatch = true,
  known?: KnownFirstMatches,
  spellings?: string,
): Excerpt {
  // why: stored page text is single-spaced by the build, so no clean-up is needed per search
  if (text.length <= maxLength) {
    return {
      excerpt: text,
      highlightedExcerpt: markRanges(text, findMatchRanges(caches, text, terms, plain === true)),
    }
  }
  const forTerms = plainnessFor(caches.outputs, plain, terms)
  // why: a page found by its title alone was scanned whole for nothing (most of an answer on a
  // site of long pages)
  const firstMatch =
    (mayMatch ? findFirstMatch(caches, text, terms, forTerms, known, spellings) : null) ?? 0
  return excerptAt(caches, text, terms, maxLength, forTerms, firstMatch, spellings)
}

/** The excerpt of a text longer than `maxLength` whose first match is at `firstMatch`. */
function excerptAt(
  caches: TextCaches,
  text: string,
  terms: readonly string[],
  maxLength: number,
  plain: TextPlainness,
  firstMatch: number,
  spellings?: string,
): Excerpt {
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
  // why: the page's list of characters that are not plain tells how its excerpt is searched
  // (a look at the body for them cost more); without a list, a page that is not plain mostly
  // has plain excerpts (① ℃ ㈱ are a few on a page)
  return {
    excerpt: before + body + after,
    highlightedExcerpt:
      before +
      markRanges(
        body,
        findMatchRanges(
          caches,
          body,
          terms,
          plain === false ? isPlainText(body) : plain,
          spellings,
        ),
      ) +
      after,
  }
}

/**
 * The excerpt of a text of which `head` is only the start (index/searchText.ts), when the head
 * alone decides it as makeExcerpt on the whole text would; null when the whole text is needed
 * (the first match lies past the head, or so near its end that its window or the match itself
 * may reach past it). `head` must be longer than `maxLength`; `spellings`: the whole text's
 * (makeExcerpt).
 */
export function excerptFromHead(
  caches: TextCaches,
  head: string,
  terms: readonly string[],
  maxLength: number,
  plain: TextPlainness,
  mayMatch: boolean,
  spellings?: string,
): Excerpt | null {
  if (!mayMatch) return makeExcerpt(caches, head, terms, maxLength, plain, false)
  const firstMatch = findFirstMatch(caches, head, terms, plain, undefined, spellings)
  if (firstMatch === null) return null
  // why: twice the reach firstMatch.ts gives a match: past it the text after the head could
  // start an earlier match, end this one otherwise (a Latin word going on), or fill the window
  const margin = 4 * Math.max(0, ...terms.map((term) => term.length)) + 8
  const lead = Math.floor(maxLength * LEAD_FRACTION)
  return firstMatch + maxLength - lead + margin <= head.length
    ? excerptAt(caches, head, terms, maxLength, plain, firstMatch, spellings)
    : null
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
