import { isCjkTerm } from '../terms/cjkTokenizer.js'
import { isPlainText, normalizeSearchText, notPlainCharacters } from '../textNormalization.js'
import { escapeHtml } from '../../htmlEscape.js'
import { termMatchLength, termPattern } from './termPattern.js'
import { foldKana } from '../terms/kanaFolding.js'
import { isTermChar } from '../terms/textSpellings.js'

/** A half-open range `[start, end)` of UTF-16 positions in the original text. */
export type TextRange = readonly [start: number, end: number]

const WORD_CHAR = /[\p{L}\p{N}]/u
type Origins = { at(position: number): number }
const IDENTITY: Origins = { at: (position) => position }
// why: a combining mark never follows white space or Japanese punctuation (。、！？), so cutting
// there is safe. Written as escapes: one character past ASCII in the bundle makes V8 read all its
// source as two-byte text (~0.3 ms of a cold start; tests/foundation/bundles.test.ts)
const PIECE_END = /(?<=[\s\u3002\u3001\uff01\uff1f])/u
// why: NFKC joins a half-width kana with a following half-width (semi-)voiced mark, a letter
// with a following combining mark, a Hangul jamo with the vowel or final jamo after it
const JOINS_PREVIOUS = /[\p{M}\uFF9E\uFF9F\u1160-\u11FF]/u

/**
 * Where the matched terms occur in `text`, merged and sorted. Terms are in the folded form of
 * the index (termPattern.ts finds their spellings); Latin terms match whole words only (`tea` not
 * in `steam`), Japanese terms anywhere. `plain`: what is known of `text` (TextPlainness);
 * `spellings`: the pairs written in more than one way of a text `text` is part of, when listed
 * (findFirstMatch).
 */
export function findMatchRanges(
  text: string,
  terms: readonly string[],
  plain: TextPlainness = isPlainText(text),
  spellings?: string,
): TextRange[] {
  // why: text that is not plain is normalised only at those characters (lightlyNormalized);
  // where one normalises by its neighbours, whole, unless none can take part in a match (①
  // beside a Japanese word): then it is searched as it is
  const searched =
    plain === true
      ? searchable(text, true)
      : (asListed(text, plain, terms) ??
        lightlyNormalized(text) ??
        searchable(text, !anyContributes(text, terms)))
  const ranges: Array<[number, number]> = []
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i]!
    if (terms.indexOf(term) !== i) continue
    const sought = termSought(term)
    if (
      spellings !== undefined &&
      sought.spelling !== null &&
      singleSpelled(searched, sought, spellings) &&
      pushSpelledRanges(searched.text, sought, ranges)
    ) {
      continue
    }
    for (
      let at = findTerm(searched, sought, 0);
      at !== -1;
      at = findTerm(searched, sought, at + 1)
    ) {
      ranges.push([searched.origins.at(at), searched.origins.at(matchEnd)])
    }
  }
  return ranges.length < 2 ? ranges : mergeRanges(ranges)
}

/** Text to find folded terms in, with the original position of each of its positions. */
interface Searchable {
  text: string
  origins: Origins
  /**
   * Whether a Latin term's word check looks at its neighbours normalised (lightWordCharAt): the
   * text is searched as it is for what lightly normalised text holds (see wordChecksOnly).
   */
  lightNeighbours?: boolean
}

/**
 * How a text whose characters that are not plain are listed (`plain` a string) is searched: as
 * it is when none of them can take part in a match, with its word checks seeing them normalised
 * when that is all they can change (wordChecksOnly); null when neither holds.
 */
function asListed(text: string, plain: TextPlainness, terms: readonly string[]): Searchable | null {
  if (typeof plain !== 'string') return null
  if (!anyMayContribute(plain, terms)) return { text, origins: IDENTITY }
  return wordChecksOnly(plain, terms) ? { text, origins: IDENTITY, lightNeighbours: true } : null
}

// why: plain text (most pages) is searched as it is, so nothing is normalised or copied; the
// copies of normalised pages were most of an answer's garbage, collected every ~20 answers
function searchable(text: string, plain: boolean): Searchable {
  if (plain) return { text, origins: IDENTITY }
  const { normalized, origins } = normalizeWithOrigins(text)
  return { text: normalized, origins }
}

let notPlain: RegExp | null = null

/**
 * What is known of a text: `true` plain (isPlainText), `false` not plain, or a string: not plain,
 * and its characters that are not plain are among these (notPlainKeys).
 */
export type TextPlainness = boolean | string

/**
 * Per term, where its first match starts in one text (null: none), filled by findFirstMatch
 * where the text matches as it is.
 */
export type KnownFirstMatches = Map<string, number | null>

/**
 * Where the first match of `terms` starts in `text` (see findMatchRanges), or null.
 * why: normalising a long page whole for every result was the largest cost of an answer. Plain
 * text is searched as it is. In other text every plain character normalises on its own to what
 * the term patterns find as it is, so a match that differs once normalised must reach near a
 * character that is not plain: the text is searched as it is and, where such characters can take
 * part in a match, normalised at them alone (lightlyNormalized) or, when one normalises by its
 * neighbours (ｶﾞ, e + U+0301), in a window around each before that match. `spellings`: the
 * text's pairs written in more than one way (mixedSpellingPairs), when the data lists them.
 */
export function findFirstMatch(
  text: string,
  terms: readonly string[],
  plain: TextPlainness = isPlainText(text),
  known?: KnownFirstMatches,
  spellings?: string,
): number | null {
  // why: where no character that is not plain can take part in a match, the text matches as it
  // is, term by term, so what an earlier look found for a term (the adjacency check) is reused
  if (plain === true || (plain !== false && !anyMayContribute(plain, terms))) {
    return firstMatchIn(searchable(text, true), terms, known, spellings)
  }
  // why: ① ℃ on a page of a Latin query (their 1, c are word characters) normalised the text up
  // to the first match for each result (4–9 µs against 0.2–0.4 µs as it is)
  if (plain !== false && wordChecksOnly(plain, terms)) {
    return firstMatchIn({ text, origins: IDENTITY, lightNeighbours: true }, terms)
  }
  const longest = Math.max(0, ...terms.map((term) => term.length))
  // why: a match with a character that expands (㍿ → 株式会社) or joins (ｶﾞ) lies within this
  const reach = 2 * longest + 4
  const raw = firstMatchIn({ text, origins: IDENTITY }, terms)
  const light = firstLightMatch(text, terms, raw, reach)
  if (light !== undefined) return light
  notPlain ??= notPlainCharacters()
  notPlain.lastIndex = 0
  let first: number | null = null
  const contributes = contributingCharacters(terms)
  for (let odd = notPlain.exec(text); odd; odd = notPlain.exec(text)) {
    if (first !== null && odd.index - reach >= first) break
    if (raw !== null && odd.index - reach > raw) break
    if (!contributes(text, odd.index)) continue
    // why: cut where nothing joins across and no Latin word runs on (white space, 。、！？), so
    // the window normalises as the whole text does there and its edges are word edges
    const from = safeCut(text, odd.index - reach, -1)
    const to = safeCut(text, odd.index + reach, 1)
    if (from === null || to === null) return firstMatchIn(searchable(text, false), terms)
    const found = firstMatchIn(searchable(text.slice(from, to), false), terms)
    if (found !== null && (first === null || from + found < first)) first = from + found
    notPlain.lastIndex = Math.max(notPlain.lastIndex, to)
  }
  if (raw === null || (first !== null && first <= raw)) return first
  // why: a spelling found as it is may not be a whole word once normalised (e + U+0301 before
  // Ｖ６０ joins into é): near a character that is not plain, it is checked in its window (the
  // windows before it found nothing earlier); the whole text only when the window has no match
  if (!nearNotPlain(text, raw, reach)) return raw
  const from = safeCut(text, raw - reach, -1)
  const to = safeCut(text, raw + reach, 1)
  const found =
    from === null || to === null
      ? null
      : firstMatchIn(searchable(text.slice(from, to), false), terms)
  return found !== null ? from! + found : firstMatchIn(searchable(text, false), terms)
}

// why: what a folded term's spellings may hold besides the term's own characters
const SPELLING_MARKS = new Set('ー々〻ゝヽゞヾ')

/**
 * Whether the character that is not plain at a position can take part in a match of `terms`
 * once normalised: it joins its neighbour, or normalises to a character of a term (kana in either
 * script) or to a mark a spelling may hold.
 * why: a page holding none of the terms as they are was normalised in a window around every such
 * character (① ℃ ㈱, a few hundred on a long page: most of a long-page answer); one that gives
 * none of the terms' characters cannot make a match there
 */
function contributingCharacters(terms: readonly string[]): (text: string, at: number) => boolean {
  const characters = new Set(terms.join(''))
  // why: beside a Latin term, a character normalising to a letter or digit decides whether the
  // term is a whole word there (℃ → °c before `tea`)
  const latin = terms.some((term) => term && !isCjkTerm(term))
  return (text, at) => {
    const { joins, outputs } = characterOutputs(text.codePointAt(at)!)
    if (joins) return true
    for (const out of outputs) {
      if (
        characters.has(out) ||
        characters.has(katakanaOf(out)) ||
        SPELLING_MARKS.has(out) ||
        (latin && isLatinWordChar(out))
      ) {
        return true
      }
    }
    return false
  }
}

interface CharacterOutputs {
  joins: boolean
  /** What the character normalises to, as code points. */
  outputs: readonly string[]
  normalized: string
  /** Whether it normalises the same whatever its neighbours (see lightlyNormalized). */
  light: boolean
  /** Its outputs, each also as katakana when hiragana: what a term must hold to take them. */
  inTerms: readonly string[]
  /** Whether an output is a mark a spelling may hold (SPELLING_MARKS). */
  mark: boolean
  /** Whether an output is a Latin word character. */
  latinOutput: boolean
}

// why: a character whose NFKC holds Σ lower-cases by its neighbours (ς at a word's end); one
// giving a combining mark or a Hangul jamo may compose with what comes next
const CONTEXTUAL_OUTPUT = /[\p{M}\u1100-\u11FF]/u

// why: what a character normalises to depends on the character alone, so it is worked out once
// per character for every answer (normalising each ① ℃ ㈱ again per result was most of the
// excerpts of pages that are not plain)
const outputsOf = new Map<number, CharacterOutputs>()

function characterOutputs(code: number): CharacterOutputs {
  let found = outputsOf.get(code)
  if (!found) {
    const char = String.fromCodePoint(code)
    const joins = JOINS_PREVIOUS.test(char)
    const normalized = normalizeSearchText(char)
    const light =
      !joins &&
      (code < 0xd800 || code > 0xdfff) &&
      !char.normalize('NFKC').includes('\u03a3') &&
      !CONTEXTUAL_OUTPUT.test(normalized)
    const outputs = [...normalized]
    found = {
      joins,
      outputs,
      normalized,
      light,
      inTerms: outputs.flatMap((out) => [out, katakanaOf(out)]),
      mark: outputs.some((out) => SPELLING_MARKS.has(out)),
      latinOutput: outputs.some(isLatinWordChar),
    }
    outputsOf.set(code, found)
  }
  return found
}

/** Whether some character of `text` that is not plain can take part in a match of `terms`. */
function anyContributes(text: string, terms: readonly string[]): boolean {
  notPlain ??= notPlainCharacters()
  notPlain.lastIndex = 0
  const contributes = contributingCharacters(terms)
  for (let odd = notPlain.exec(text); odd; odd = notPlain.exec(text)) {
    if (contributes(text, odd.index)) return true
  }
  return false
}

/**
 * `text` with only its characters that are not plain normalised, each on its own, and the
 * original position of each position; null when one of them normalises by its neighbours.
 * why: the term patterns find plain characters as they are, and a character that neither joins
 * its neighbour nor lower-cases or composes by it normalises within a text as it does alone, so
 * this finds what normalising the whole text finds, at the cost of a look at the few characters
 * that are not plain (windows normalised around each were most of such a page's excerpt)
 */
function lightlyNormalized(text: string): Searchable | null {
  notPlain ??= notPlainCharacters()
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
    const { normalized, light: alone } = characterOutputs(code)
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

/**
 * The first match in lightly normalised text (see lightlyNormalized), or undefined when the
 * text has a character normalising by its neighbours. `raw`: the first match in `text` as it is.
 * why: a match as it is stays one once normalised unless a neighbour stops it being a whole word,
 * so only the text up to it (and a word after) is normalised; the whole text when it does not hold
 */
function firstLightMatch(
  text: string,
  terms: readonly string[],
  raw: number | null,
  reach: number,
): number | null | undefined {
  const to = raw === null ? null : safeCut(text, raw + reach, 1)
  // why: where no character that is not plain can take part in a match (① ℃ ㈱ beside Japanese
  // terms, the usual case) the text matches as it is, with nothing normalised
  if (!contributesBefore(text, terms, to ?? text.length)) return raw
  if (to !== null && to < text.length) {
    const head = lightlyNormalized(text.slice(0, to))
    if (!head) return undefined
    const found = firstMatchIn(head, terms)
    if (found !== null) return found
  }
  const whole = lightlyNormalized(text)
  return whole ? firstMatchIn(whole, terms) : undefined
}

/**
 * Whether a character that is not plain before `end` can take part in a match of `terms` (see
 * contributingCharacters), or, beside a Latin term, is a letter or digit as it is (its word
 * check may change once normalised).
 */
function contributesBefore(text: string, terms: readonly string[], end: number): boolean {
  notPlain ??= notPlainCharacters()
  notPlain.lastIndex = 0
  const contributes = contributingCharacters(terms)
  const latin = terms.some((term) => term && !isCjkTerm(term))
  for (let odd = notPlain.exec(text); odd && odd.index < end; odd = notPlain.exec(text)) {
    if (contributes(text, odd.index) || (latin && isLatinWordChar(text[odd.index]))) return true
  }
  return false
}

/**
 * What is known of a text for `terms`: `true` also where its listed characters that are not plain
 * cannot take part in a match of them (the text and its parts are then searched as they are).
 * why: the first match and the excerpt's ranges each looked at the list again
 */
export function plainnessFor(plain: TextPlainness, terms: readonly string[]): TextPlainness {
  return typeof plain === 'string' && !anyMayContribute(plain, terms) ? true : plain
}

/**
 * Whether the characters `keys` (all of a text's that are not plain) can change a match of
 * `terms` only by being Latin word characters once normalised (① → 1, ℃ → °c beside a Latin
 * term): each normalises alone (lightlyNormalized) to nothing a term's pattern finds, and the terms
 * are Japanese or ASCII (their patterns find plain characters alone). The text is then searched
 * as it is, each word check seeing its neighbours normalised (lightWordCharAt): what searching
 * the lightly normalised text finds, at the same positions.
 */
function wordChecksOnly(keys: string, terms: readonly string[]): boolean {
  for (const term of terms) {
    if (!isCjkCode(term.charCodeAt(0)) && !isCjkTerm(term) && !ASCII_TERM.test(term)) return false
  }
  for (const char of keys) {
    if (!characterOutputs(char.codePointAt(0)!).light || keyMayContribute(char, terms, false)) {
      return false
    }
  }
  return true
}

const ASCII_TERM = /^[\x21-\x7e]*$/

/**
 * Whether the character before (`before`) or after a match, at `i`, is a Latin word character
 * in lightly normalised text: a character that is not plain as its normal form has it there.
 */
function lightWordCharAt(text: string, i: number, before: boolean): boolean {
  if (i < 0 || i >= text.length) return false
  const unit = text.charCodeAt(i)
  if (unit < 0x80 || isPlainText(text[i]!)) return isLatinWordChar(text[i])
  // why: a pair ending before the match is looked up by its first half
  const pair = before && unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text, i - 1)
  const { normalized } = characterOutputs(text.codePointAt(pair ? i - 1 : i)!)
  return isLatinWordChar(before ? normalized[normalized.length - 1] : normalized[0])
}

function isHighSurrogate(text: string, i: number): boolean {
  const code = text.charCodeAt(i)
  return code >= 0xd800 && code <= 0xdbff
}

/**
 * Whether a character among `keys` (a text's characters that are not plain, notPlainKeys) can
 * take part in a match of `terms` (see contributesBefore): each code point is looked at, and
 * each of its UTF-16 units alone, as the scan of the text meets them.
 */
function anyMayContribute(keys: string, terms: readonly string[]): boolean {
  // why: a few keys against a few terms, at every result: no set of the terms' characters and no
  // function made per call (each cost more than the look itself)
  const latin = terms.some((term) => term && !isCjkTerm(term))
  for (const char of keys) if (keyMayContribute(char, terms, latin)) return true
  for (let i = 0; i < keys.length; i++) {
    const code = keys.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdfff && keyMayContribute(keys[i]!, terms, latin)) return true
  }
  return false
}

/** contributingCharacters's test for one character, and the Latin word check beside it. */
function keyMayContribute(char: string, terms: readonly string[], latin: boolean): boolean {
  // why: what the character gives is worked out once (characterOutputs): this runs for each
  // listed character of each result's page, twice (first match, excerpt)
  const { joins, mark, latinOutput, inTerms } = characterOutputs(char.codePointAt(0)!)
  if (joins || mark || (latin && (latinOutput || isLatinWordChar(char[0])))) return true
  for (const out of inTerms) if (termsInclude(terms, out)) return true
  return false
}

/** A hiragana character as katakana; anything else as it is. */
function katakanaOf(char: string): string {
  const kana = char.charCodeAt(0)
  return kana >= 0x3041 && kana <= 0x3096 ? String.fromCharCode(kana + 0x60) : char
}

function termsInclude(terms: readonly string[], char: string): boolean {
  for (const term of terms) if (term.includes(char)) return true
  return false
}

// why: white space, 。、！？ (escapes: see PIECE_END)
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

function nearNotPlain(text: string, at: number, reach: number): boolean {
  notPlain!.lastIndex = Math.max(0, at - reach)
  const odd = notPlain!.exec(text)
  return odd !== null && odd.index <= at + reach
}

/** `spellings` (see findFirstMatch) only for text searched as it is. */
function firstMatchIn(
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
  for (const term of terms) {
    if (known?.has(term)) continue
    const sought = termSought(term)
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
        ? singleSpelledFirst(within, sought, spellings)
        : findTerm(within, sought, 0)
    // why: the first match of the term in the whole text, where the cut cannot have hidden it
    if (within === searched) known?.set(term, found === -1 ? null : found)
    else if (found !== -1 && found < first!) known?.set(term, found)
    if (found !== -1 && (first === null || found < first)) first = found
  }
  return first === null ? null : searched.origins.at(first)
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
export function highlight(text: string, terms: readonly string[]): string {
  return markRanges(text, findMatchRanges(text, terms))
}

// why: where the match findTerm returned ends; a pair allocated per match was a part of the
// garbage each answer made
let matchEnd = 0

/** A term as findTerm looks for it, worked out once per term. */
interface TermSought {
  term: string
  /** termPattern's, or null: found by `indexOf`. */
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

// why: a term's patterns and spellings were looked up per text searched, several times a result
const sought = new Map<string, TermSought>()

function termSought(term: string): TermSought {
  let found = sought.get(term)
  if (found === undefined) {
    if (sought.size >= MAX_SOUGHT) sought.clear()
    const pattern = termPattern(term)
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
    sought.set(term, found)
  }
  return found
}

const MAX_SOUGHT = 500

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
 * written in more than one way (mixedSpellingPairs).
 * why: when none of the term's pairs is among them, every match of the term on the page is
 * written one way: where its usual spelling occurs, that way, so its first occurrence (`indexOf`,
 * several times faster than the pattern over the ~1,400 characters before a long page's first
 * match) is the first match; else the pattern searches as before
 */
function singleSpelledFirst(searched: Searchable, term: TermSought, spellings: string): number {
  if (singleSpelled(searched, term, spellings)) {
    const at = searched.text.indexOf(term.spelling!)
    if (at !== -1) return at
  }
  return findTerm(searched, term, 0)
}

/**
 * Whether, in text searched as it is, every occurrence of a term with a usual spelling is
 * written one way (none of its pairs is among the text's `spellings`): where that spelling
 * occurs, it is the only one.
 */
function singleSpelled(searched: Searchable, term: TermSought, spellings: string): boolean {
  if (searched.lightNeighbours || searched.origins !== IDENTITY) return false
  for (const pair of term.pairs) if (spellings.includes(pair)) return false
  return true
}

/**
 * Pushes the ranges of a single-spelled term's matches in `text` (see singleSpelled); false,
 * pushing none, when its usual spelling is not in `text`.
 * why: the excerpt's ranges were the pattern's second scan of each result's window
 */
function pushSpelledRanges(
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

/**
 * Where the next occurrence of the term from `from` starts (its end in `matchEnd`), or -1; a
 * Latin term only as a whole word.
 */
function findTerm({ text, lightNeighbours }: Searchable, sought: TermSought, from: number): number {
  if (!sought.term) return -1
  // why: a Japanese term (the usual one) is found anywhere, with no word check
  if (sought.japanese) return nextSpelling(text, sought, from)
  for (let at = nextSpelling(text, sought, from); at !== -1;) {
    const end = matchEnd
    const wordBefore = lightNeighbours
      ? lightWordCharAt(text, at - 1, true)
      : isLatinWordChar(text[at - 1])
    const wordAfter = lightNeighbours
      ? lightWordCharAt(text, end, false)
      : isLatinWordChar(text[end])
    if (!wordBefore && !wordAfter) {
      matchEnd = end
      return at
    }
    at = nextSpelling(text, sought, at + 1)
  }
  return -1
}

/** Where the next spelling of the term from `from` starts (its end in `matchEnd`), or -1. */
function nextSpelling(text: string, { term, pattern, length }: TermSought, from: number): number {
  if (!pattern) {
    const at = text.indexOf(term, from)
    matchEnd = at + term.length
    return at
  }
  pattern.lastIndex = from
  if (length !== null) {
    if (!pattern.test(text)) return -1
    matchEnd = pattern.lastIndex
    return matchEnd - length
  }
  const found = pattern.exec(text)
  if (!found) return -1
  matchEnd = found.index + found[0].length
  return found.index
}

function isLatinWordChar(char: string | undefined): boolean {
  if (char === undefined) return false
  const code = char.charCodeAt(0)
  // why: ASCII first, without regular expressions: this runs at every match of a Latin term
  if (code < 0x80)
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
  return !isCjkCode(code) && !isPunctuationCode(code) && WORD_CHAR.test(char) && !isCjkTerm(char)
}

/**
 * General, Japanese and full-width punctuation (no letter or digit among them), the usual
 * neighbours of a Latin word on a Japanese page. why: told without `WORD_CHAR`, whose first use
 * compiles its Unicode classes (~1 ms of a cold start of a Latin query)
 */
function isPunctuationCode(code: number): boolean {
  return (
    (code >= 0x2000 && code <= 0x206f) ||
    (code >= 0x3000 && code <= 0x3004) ||
    (code >= 0x3008 && code <= 0x3020) ||
    (code >= 0xff01 && code <= 0xff0f) ||
    (code >= 0xff1a && code <= 0xff20) ||
    (code >= 0xff3b && code <= 0xff40) ||
    (code >= 0xff5b && code <= 0xff65)
  )
}

/** Kana (either script, with ー) or a common kanji: a quick yes before `isCjkTerm`. */
function isCjkCode(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x309d && code <= 0x30fc && code !== 0x30a0 && code !== 0x30fb)
  )
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
