import { normalizeSearchText } from '../textNormalization.js'
import { foldKana } from './kanaFolding.js'

/*
 * Which pairs of Japanese characters a page's text writes in more than one way, so that a
 * Japanese term none of whose pairs is among them is found by `indexOf` of one spelling instead
 * of its pattern (query/termSpellings.ts, `singleSpelledFirst`; docs/search.md, "Excerpts without
 * normalising").
 * why: a term's pattern (`[セせｾ][ッっｯ][トとﾄ]`) scanned the text of a long page up to its first
 * match at every result, the largest part of an answer past the index search; `indexOf` scans it
 * several times faster
 */

/**
 * The pairs of adjacent characters of `text` (kana, ー, kanji, as folded: `foldedChar`) that it
 * writes in two or more ways (`セッ` and `せっ`, `サー` and `サｰ`), each folded pair once,
 * joined; null when a character repeats the one before (々 ゝ ヾ: a spelling of the pair the
 * pattern finds but the fold does not tell) or when there are more than `max` pairs.
 */
export function mixedSpellingPairs(text: string, max: number): string | null {
  const firstSpelling = new Map<string, string>()
  const mixed = new Set<string>()
  let previous = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (ITERATION_MARKS.has(code)) return null
    const folded = foldedChar(code)
    if (folded !== '' && previous !== '') {
      const pair = previous + folded
      const written = text.slice(i - 1, i + 1)
      const first = firstSpelling.get(pair)
      if (first === undefined) firstSpelling.set(pair, written)
      else if (first !== written && !mixed.has(pair)) {
        mixed.add(pair)
        if (mixed.size > max) return null
      }
    }
    previous = folded
  }
  return [...mixed].join('')
}

// 々 〻 ゝ ヽ ゞ ヾ
const ITERATION_MARKS = new Set([0x3005, 0x303b, 0x309d, 0x30fd, 0x309e, 0x30fe])

/**
 * A character of text as a term's folded character (kana in katakana, ヵ ヶ as カ ケ, half-width
 * kana and ｰ in full width), or '' when it is none of kana, ー and kanji. Every spelling a term's
 * pattern finds for a character folds to it (termPattern.ts); a few more may (conservative).
 */
function foldedChar(code: number): string {
  if (code < 0x3041) return ''
  const normal = code >= 0xff61 ? normalizeSearchText(String.fromCharCode(code)) : ''
  const unit = normal.length === 1 ? normal.charCodeAt(0) : code
  const folded = foldKana(unit)
  return isTermChar(folded) ? String.fromCharCode(folded) : ''
}

/** Katakana (folded kana), ー, or a kanji of the CJK Unified Ideographs. */
export function isTermChar(code: number): boolean {
  return (code >= 0x30a1 && code <= 0x30fc) || (code >= 0x4e00 && code <= 0x9fff)
}
