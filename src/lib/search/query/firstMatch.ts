import { isPlainText } from '../textNormalization.js'
import {
  anyMayContribute,
  contributingCharacters,
  wordChecksOnly,
  contributesBefore,
  type TextPlainness,
} from './characterOutputs.js'
import { findTerm, singleSpelledFirst, type MatchEnd } from './termSpellings.js'
import type { TextCaches } from './textCaches.js'
import { IDENTITY, lightlyNormalized, searchable, type Searchable } from './textOrigins.js'

/**
 * Per term, where its first match starts in one text (null: none), filled by findFirstMatch
 * where the text matches as it is.
 */
export type KnownFirstMatches = Map<string, number | null>

/**
 * Where the first match of `terms` starts in `text` (see highlight.ts, findMatchRanges), or null.
 * why: normalising a long page whole for every result was the largest cost of an answer. Plain
 * text is searched as it is. In other text every plain character normalises on its own to what
 * the term patterns find as it is, so a match that differs once normalised must reach near a
 * character that is not plain: the text is searched as it is and, where such characters can take
 * part in a match, normalised at them alone (lightlyNormalized) or, when one normalises by its
 * neighbours (ｶﾞ, e + U+0301), in a window around each before that match. `spellings`: the
 * text's pairs written in more than one way (mixedSpellingPairs), when the data lists them.
 */
export function findFirstMatch(
  caches: TextCaches,
  text: string,
  terms: readonly string[],
  plain: TextPlainness = isPlainText(text),
  known?: KnownFirstMatches,
  spellings?: string,
): number | null {
  const { outputs } = caches
  // why: where no character that is not plain can take part in a match, the text matches as it
  // is, term by term, so what an earlier look found for a term (the adjacency check) is reused
  if (plain === true || (plain !== false && !anyMayContribute(outputs, plain, terms))) {
    return firstMatchIn(caches, searchable(text, true), terms, known, spellings)
  }
  // why: ① ℃ on a page of a Latin query (their 1, c are word characters) normalised the text up
  // to the first match for each result, several times slower than searching it as it is
  if (plain !== false && wordChecksOnly(outputs, plain, terms)) {
    return firstMatchIn(caches, { text, origins: IDENTITY, lightNeighbours: true }, terms)
  }
  const longest = Math.max(0, ...terms.map((term) => term.length))
  // why: a match with a character that expands (㍿ → 株式会社) or joins (ｶﾞ) lies within this
  const reach = 2 * longest + 4
  const raw = firstMatchIn(caches, { text, origins: IDENTITY }, terms)
  const light = firstLightMatch(caches, text, terms, raw, reach)
  if (light !== undefined) return light
  const { notPlain } = outputs
  notPlain.lastIndex = 0
  let first: number | null = null
  const contributes = contributingCharacters(outputs, terms)
  for (let odd = notPlain.exec(text); odd; odd = notPlain.exec(text)) {
    if (first !== null && odd.index - reach >= first) break
    if (raw !== null && odd.index - reach > raw) break
    if (!contributes(text, odd.index)) continue
    // why: cut where nothing joins across and no Latin word runs on (white space, 。、！？), so
    // the window normalises as the whole text does there and its edges are word edges
    const from = safeCut(text, odd.index - reach, -1)
    const to = safeCut(text, odd.index + reach, 1)
    if (from === null || to === null) return firstMatchIn(caches, searchable(text, false), terms)
    const found = firstMatchIn(caches, searchable(text.slice(from, to), false), terms)
    if (found !== null && (first === null || from + found < first)) first = from + found
    notPlain.lastIndex = Math.max(notPlain.lastIndex, to)
  }
  if (raw === null || (first !== null && first <= raw)) return first
  // why: a spelling found as it is may not be a whole word once normalised (e + U+0301 before
  // Ｖ６０ joins into é): near a character that is not plain, it is checked in its window (the
  // windows before it found nothing earlier); the whole text only when the window has no match
  if (!nearNotPlain(notPlain, text, raw, reach)) return raw
  const from = safeCut(text, raw - reach, -1)
  const to = safeCut(text, raw + reach, 1)
  const found =
    from === null || to === null
      ? null
      : firstMatchIn(caches, searchable(text.slice(from, to), false), terms)
  return found !== null ? from! + found : firstMatchIn(caches, searchable(text, false), terms)
}

/**
 * The first match in lightly normalised text (see textOrigins.ts, lightlyNormalized), or
 * undefined when the text has a character normalising by its neighbours. `raw`: the first match
 * in `text` as it is.
 * why: a match as it is stays one once normalised unless a neighbour stops it being a whole word,
 * so only the text up to it (and a word after) is normalised; the whole text when it does not hold
 */
function firstLightMatch(
  caches: TextCaches,
  text: string,
  terms: readonly string[],
  raw: number | null,
  reach: number,
): number | null | undefined {
  const to = raw === null ? null : safeCut(text, raw + reach, 1)
  // why: where no character that is not plain can take part in a match (① ℃ ㈱ beside Japanese
  // terms, the usual case) the text matches as it is, with nothing normalised
  if (!contributesBefore(caches.outputs, text, terms, to ?? text.length)) return raw
  if (to !== null && to < text.length) {
    const head = lightlyNormalized(caches.outputs, text.slice(0, to))
    if (!head) return undefined
    const found = firstMatchIn(caches, head, terms)
    if (found !== null) return found
  }
  const whole = lightlyNormalized(caches.outputs, text)
  return whole ? firstMatchIn(caches, whole, terms) : undefined
}

// why: white space, 。、！？ (escapes: see textOrigins.ts, PIECE_END)
const SAFE_CUT = /[\s\u3002\u3001\uff01\uff1f]/
// why: a window reaching further than this without a cut is normalised whole instead
const MAX_CUT_SEARCH = 400

/** The nearest position at or beyond `at` (in `direction`) just after a safe cut, or null. */
function safeCut(text: string, at: number, direction: 1 | -1): number | null {
  for (let i = at, n = 0; n < MAX_CUT_SEARCH; i += direction, n++) {
    if (i <= 0) return 0
    if (i >= text.length) return text.length
    if (isSafeCut(text.charCodeAt(i - 1))) return i
  }
  return null
}

// why: a regular expression test per character made windows a large part of an excerpt
function isSafeCut(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  if (code >= 0x3040 && code <= 0x9fff) return false
  return SAFE_CUT.test(String.fromCharCode(code))
}

function nearNotPlain(notPlain: RegExp, text: string, at: number, reach: number): boolean {
  notPlain.lastIndex = Math.max(0, at - reach)
  const odd = notPlain.exec(text)
  return odd !== null && odd.index <= at + reach
}

/** `spellings` (see findFirstMatch) only for text searched as it is. */
function firstMatchIn(
  { sought: soughtTerms, outputs }: TextCaches,
  searched: Searchable,
  terms: readonly string[],
  known?: KnownFirstMatches,
  spellings?: string,
): number | null {
  let first: number | null = null
  if (known) {
    for (const term of terms) {
      const at = known.get(term)
      if (at !== undefined && at !== null && (first === null || at < first)) first = at
    }
  }
  // why: where each match found ends, which only a term's whole-word check reads here
  const match: MatchEnd = { end: 0 }
  for (const term of terms) {
    if (known?.has(term)) continue
    const sought = soughtTerms.of(term)
    // why: only a match starting before the first found so far counts: a term a page lacks was
    // searched to its end (a query's other word, a Latin expansion); the text is cut past the
    // reach of such a match and what follows it (the word check, a long-vowel mark)
    const bound = first === null ? searched.text.length : first + 2 * term.length + 8
    const within =
      bound >= searched.text.length
        ? searched
        : { ...searched, text: searched.text.slice(0, bound) }
    const found =
      spellings !== undefined && sought.spelling !== null
        ? singleSpelledFirst(outputs, within, sought, spellings, match)
        : findTerm(outputs, within, sought, 0, match)
    // why: the first match of the term in the whole text, where the cut cannot have hidden it
    if (within === searched) known?.set(term, found === -1 ? null : found)
    else if (found !== -1 && found < first!) known?.set(term, found)
    if (found !== -1 && (first === null || found < first)) first = found
  }
  return first === null ? null : searched.origins.at(first)
}
