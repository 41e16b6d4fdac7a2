import { escapeHtml } from '../../htmlEscape.js'
import { isPlainText } from '../textNormalization.js'
import {
  anyContributes,
  anyMayContribute,
  wordChecksOnly,
  type TextPlainness,
} from './characterOutputs.js'
import { findTerm, pushSpelledRanges, singleSpelled, type MatchEnd } from './termSpellings.js'
import type { TextCaches } from './textCaches.js'
import { IDENTITY, lightlyNormalized, searchable, type Searchable } from './textOrigins.js'

/*
 * Marking: where a page's text holds the matched terms, in every spelling, and that text as HTML
 * with `<mark>` around them.
 */

/** A half-open range `[start, end)` of UTF-16 positions in the original text. */
export type TextRange = readonly [start: number, end: number]

/**
 * Where the matched terms occur in `text`, merged and sorted. Terms are in the folded form of
 * the index (termPattern.ts finds their spellings); Latin terms match whole words only (`tea` not
 * in `steam`), Japanese terms anywhere. `plain`: what is known of `text` (TextPlainness);
 * `spellings`: the pairs written in more than one way of a text `text` is part of, when listed
 * (firstMatch.ts, findFirstMatch).
 */
export function findMatchRanges(
  caches: TextCaches,
  text: string,
  terms: readonly string[],
  plain: TextPlainness = isPlainText(text),
  spellings?: string,
): TextRange[] {
  const { outputs } = caches
  // why: text that is not plain is normalised only at those characters (lightlyNormalized);
  // where one normalises by its neighbours, whole, unless none can take part in a match (①
  // beside a Japanese word): then it is searched as it is
  const searched =
    plain === true
      ? searchable(text, true)
      : (asListed(caches, text, plain, terms) ??
        lightlyNormalized(outputs, text) ??
        searchable(text, !anyContributes(outputs, text, terms)))
  const ranges: Array<[number, number]> = []
  const match: MatchEnd = { end: 0 }
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!
    if (terms.indexOf(term) !== i) continue
    const sought = caches.sought.of(term)
    if (
      spellings !== undefined &&
      sought.spelling !== null &&
      singleSpelled(searched, sought, spellings) &&
      pushSpelledRanges(searched.text, sought, ranges)
    ) {
      continue
    }
    for (
      let at = findTerm(outputs, searched, sought, 0, match);
      at !== -1;
      at = findTerm(outputs, searched, sought, at + 1, match)
    ) {
      ranges.push([searched.origins.at(at), searched.origins.at(match.end)])
    }
  }
  return ranges.length < 2 ? ranges : mergeRanges(ranges)
}

/**
 * How a text whose characters that are not plain are listed (`plain` a string) is searched: as
 * it is when none of them can take part in a match, with its word checks seeing them normalised
 * when that is all they can change (wordChecksOnly); null when neither holds.
 */
function asListed(
  { outputs }: TextCaches,
  text: string,
  plain: TextPlainness,
  terms: readonly string[],
): Searchable | null {
  if (typeof plain !== 'string') return null
  if (!anyMayContribute(outputs, plain, terms)) return { text, origins: IDENTITY }
  return wordChecksOnly(outputs, plain, terms)
    ? { text, origins: IDENTITY, lightNeighbours: true }
    : null
}

/** HTML with `<mark>` around each range and every other character escaped. */
export function markRanges(text: string, ranges: readonly TextRange[]): string {
  // why: most text holds nothing to escape; one test spares a look at each piece (one look for
  // each special character, as escapeHtml makes, cost more on the whole text than this test)
  const escape = HTML_SPECIAL.test(text) ? escapeHtml : asIs
  let html = ''
  let position = 0
  for (const [start, end] of ranges) {
    html += `${escape(text.slice(position, start))}<mark>${escape(text.slice(start, end))}</mark>`
    position = end
  }
  return html + escape(text.slice(position))
}

function asIs(text: string): string {
  return text
}

const HTML_SPECIAL = /[&<>"']/

/** `text` as HTML with matched terms marked. */
export function highlight(caches: TextCaches, text: string, terms: readonly string[]): string {
  return markRanges(text, findMatchRanges(caches, text, terms))
}

function mergeRanges(ranges: Array<[number, number]>): TextRange[] {
  // why: one term's ranges (the usual case) come in order of their starts, which are distinct
  if (!startsAscend(ranges)) ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: Array<[number, number]> = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  return merged
}

function startsAscend(ranges: ReadonlyArray<readonly [number, number]>): boolean {
  for (let i = 1; i < ranges.length; i++) if (ranges[i]![0] <= ranges[i - 1]![0]) return false
  return true
}
