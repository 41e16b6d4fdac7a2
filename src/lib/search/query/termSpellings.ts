import { isCjkTerm } from '../terms/cjkTokenizer.js'
import { foldKana } from '../terms/kanaFolding.js'
import { isTermChar } from '../terms/textSpellings.js'
import { isCjkCode, isLatinWordChar, lightWordCharAt } from './characterOutputs.js'
import type { CharacterOutputs } from './characterOutputs.js'
import { termMatchLength, TermPatterns } from './termPattern.js'
import { IDENTITY, type Searchable } from './textOrigins.js'

/*
 * Finding a folded term in text in every spelling the fold joins (termPattern.ts), a Latin term
 * only as a whole word; and, where a page writes each pair of a term's characters one way only
 * (the build lists the pairs it writes in more than one way, terms/textSpellings.ts), finding
 * the one spelling it writes by `indexOf`.
 */

/** A term as findTerm looks for it, worked out once per term (SoughtTerms). */
export interface TermSought {
  term: string
  /** Its pattern (TermPatterns), or null: found by `indexOf`. */
  pattern: RegExp | null
  /** Whether it is Japanese: found anywhere, with no word check. */
  japanese: boolean
  /** termMatchLength's. */
  length: number | null
  /**
   * For a Japanese term with a pattern whose spellings differ only character by character (no
   * optional mark before its end): the spelling a page most likely writes (singleSpelledFirst).
   */
  spelling: string | null
  /** The term's pairs of adjacent characters (with `spelling`). */
  pairs: readonly string[]
  /** Whether its pattern ends with an optional long-vowel mark (with `spelling`). */
  trailingMark: boolean
}

// why: the last few hundred terms are kept, far more than an answer uses
const MAX_SOUGHT = 500

/**
 * Terms as findTerm looks for them, worked out once and kept for the next answers (workspace.ts),
 * with their patterns.
 * why: a term's patterns and spellings were looked up per text searched, several times a result
 */
export class SoughtTerms {
  readonly #sought = new Map<string, TermSought>()
  readonly #patterns = new TermPatterns()

  of(term: string): TermSought {
    let found = this.#sought.get(term)
    if (found === undefined) {
      if (this.#sought.size >= MAX_SOUGHT) this.#sought.clear()
      const pattern = this.#patterns.of(term)
      const code = term.charCodeAt(0)
      const spelling = pattern === null ? null : usualSpelling(term, pattern)
      found = {
        term,
        pattern,
        // why: ASCII first, without a regular expression (a Latin term's usual first character)
        japanese: code >= 0x80 && (isCjkCode(code) || isCjkTerm(term)),
        length: termMatchLength(term, pattern),
        spelling,
        pairs: spelling === null ? [] : pairsOf(term),
        trailingMark: spelling !== null && pattern!.source.endsWith('?'),
      }
      this.#sought.set(term, found)
    }
    return found
  }
}

/**
 * The spelling of a term of kana, ー and kanji (two or more) pages most likely write: katakana
 * alone, hiragana beside kanji (okurigana: 深蒸し); null for other terms, and where the pattern
 * has an optional mark before its end (`ラテー茶葉` would be a spelling whose pairs are not the
 * term's).
 */
function usualSpelling(term: string, pattern: RegExp): string | null {
  if (term.length < 2) return null
  let kanji = false
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i)
    if (!isTermChar(code)) return null
    if (code >= 0x4e00) kanji = true
  }
  // why: after the characters: `source` escapes the pattern anew at each read, and a Latin
  // term (no kana or kanji) is ruled out above without it
  const optional = pattern.source.indexOf('?')
  if (optional !== -1 && optional !== pattern.source.length - 1) return null
  if (!kanji) return term
  let spelling = ''
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i)
    const hiragana = code - 0x60
    spelling += String.fromCharCode(
      code < 0x4e00 && code !== 0x30fc && foldKana(hiragana) === code ? hiragana : code,
    )
  }
  return spelling
}

function pairsOf(term: string): string[] {
  const pairs: string[] = []
  for (let i = 0; i + 1 < term.length; i++) pairs.push(term.slice(i, i + 2))
  return pairs
}

/**
 * Where a term's first match starts in text searched as it is, or -1, given the text's pairs
 * written in more than one way (mixedSpellingPairs); `match` as findTerm's.
 * why: when none of the term's pairs is among them, every match of the term on the page is
 * written one way: where its usual spelling occurs, that way, so its first occurrence (`indexOf`,
 * several times faster than the pattern over the text before a long page's first match) is the
 * first match; else the pattern searches as before
 */
export function singleSpelledFirst(
  outputs: CharacterOutputs,
  searched: Searchable,
  term: TermSought,
  spellings: string,
  match: MatchEnd,
): number {
  if (singleSpelled(searched, term, spellings)) {
    const at = searched.text.indexOf(term.spelling!)
    if (at !== -1) return at
  }
  return findTerm(outputs, searched, term, 0, match)
}

/**
 * Whether, in text searched as it is, every occurrence of a term with a usual spelling is
 * written one way (none of its pairs is among the text's `spellings`): where that spelling
 * occurs, it is the only one.
 */
export function singleSpelled(searched: Searchable, term: TermSought, spellings: string): boolean {
  if (searched.lightNeighbours || searched.origins !== IDENTITY) return false
  for (const pair of term.pairs) if (spellings.includes(pair)) return false
  return true
}

/**
 * Pushes the ranges of a single-spelled term's matches in `text` (see singleSpelled); false,
 * pushing none, when its usual spelling is not in `text`.
 * why: the excerpt's ranges were the pattern's second scan of each result's window
 */
export function pushSpelledRanges(
  text: string,
  term: TermSought,
  ranges: Array<[number, number]>,
): boolean {
  const spelling = term.spelling!
  let at = text.indexOf(spelling)
  if (at === -1) return false
  for (; at !== -1; at = text.indexOf(spelling, at + 1)) {
    let end = at + spelling.length
    // why: the pattern's one optional part, a long-vowel mark after the term (termPattern.ts)
    if (term.trailingMark && isLongVowelMark(text.charCodeAt(end))) end++
    ranges.push([at, end])
  }
  return true
}

function isLongVowelMark(code: number): boolean {
  return code === 0x30fc || code === 0xff70
}

/** Where the match a find returned ends: the finder writes it, its caller reads it. */
export interface MatchEnd {
  end: number
}

/**
 * Where the next occurrence of the term from `from` starts (its end written to `match`), or -1;
 * a Latin term only as a whole word.
 */
export function findTerm(
  outputs: CharacterOutputs,
  { text, lightNeighbours }: Searchable,
  sought: TermSought,
  from: number,
  match: MatchEnd,
): number {
  if (!sought.term) return -1
  // why: a Japanese term (the usual one) is found anywhere, with no word check
  if (sought.japanese) return nextSpelling(text, sought, from, match)
  for (let at = nextSpelling(text, sought, from, match); at !== -1;) {
    const { end } = match
    const wordBefore = lightNeighbours
      ? lightWordCharAt(outputs, text, at - 1, true)
      : isLatinWordChar(text[at - 1])
    const wordAfter = lightNeighbours
      ? lightWordCharAt(outputs, text, end, false)
      : isLatinWordChar(text[end])
    if (!wordBefore && !wordAfter) {
      match.end = end
      return at
    }
    at = nextSpelling(text, sought, at + 1, match)
  }
  return -1
}

/** Where the next spelling of the term from `from` starts (its end written to `match`), or -1. */
function nextSpelling(
  text: string,
  { term, pattern, length }: TermSought,
  from: number,
  match: MatchEnd,
): number {
  if (!pattern) {
    const at = text.indexOf(term, from)
    match.end = at + term.length
    return at
  }
  pattern.lastIndex = from
  if (length !== null) {
    if (!pattern.test(text)) return -1
    match.end = pattern.lastIndex
    return match.end - length
  }
  const found = pattern.exec(text)
  if (!found) return -1
  match.end = found.index + found[0].length
  return found.index
}
