import { isCjkTerm } from '../terms/cjkTokenizer.js'
import { isPlainText, normalizeSearchText, notPlainCharacters } from '../textNormalization.js'

/*
 * Characters that are not plain (textNormalization.ts, isPlainText): what each normalises to,
 * and whether it can take part in a match of some terms. A page is searched as it is, and only
 * near such characters, where normalising may change what matches, is it normalised
 * (textOrigins.ts, firstMatch.ts).
 */

/**
 * What is known of a text: `true` plain (isPlainText), `false` not plain, or a string: not plain,
 * and its characters that are not plain are among these (notPlainKeys).
 */
export type TextPlainness = boolean | string

// why: NFKC joins a half-width kana with a following half-width (semi-)voiced mark, a letter
// with a following combining mark, a Hangul jamo with the vowel or final jamo after it
export const JOINS_PREVIOUS = /[\p{M}\uFF9E\uFF9F\u1160-\u11FF]/u
// why: what a folded term's spellings may hold besides the term's own characters
const SPELLING_MARKS = new Set('ー々〻ゝヽゞヾ')
// why: a character whose NFKC holds Σ lower-cases by its neighbours (ς at a word's end); one
// giving a combining mark or a Hangul jamo may compose with what comes next
const CONTEXTUAL_OUTPUT = /[\p{M}\u1100-\u11FF]/u
const WORD_CHAR = /[\p{L}\p{N}]/u
const ASCII_TERM = /^[\x21-\x7e]*$/

/** What a character normalises to, and what that means for matches (CharacterOutputs). */
export interface CharacterOutput {
  joins: boolean
  /** What the character normalises to, as code points. */
  outputs: readonly string[]
  normalized: string
  /** Whether it normalises the same whatever its neighbours (see textOrigins.ts). */
  light: boolean
  /** Its outputs, each also as katakana when hiragana: what a term must hold to take them. */
  inTerms: readonly string[]
  /** Whether an output is a mark a spelling may hold (SPELLING_MARKS). */
  mark: boolean
  /** Whether an output is a Latin word character. */
  latinOutput: boolean
}

/**
 * The characters that are not plain met so far, each worked out once (workspace.ts), and the
 * expression finding them in a text.
 * why: what a character normalises to depends on the character alone; normalising each ① ℃ ㈱
 * again per result was most of the excerpts of pages that are not plain
 */
export class CharacterOutputs {
  readonly #known = new Map<number, CharacterOutput>()
  /**
   * Finds the characters that are not plain (notPlainCharacters), global: each use sets its
   * `lastIndex` first.
   */
  readonly notPlain = notPlainCharacters()

  of(code: number): CharacterOutput {
    let found = this.#known.get(code)
    if (!found) {
      found = characterOutput(code)
      this.#known.set(code, found)
    }
    return found
  }
}

function characterOutput(code: number): CharacterOutput {
  const char = String.fromCodePoint(code)
  const joins = JOINS_PREVIOUS.test(char)
  const normalized = normalizeSearchText(char)
  const light =
    !joins &&
    (code < 0xd800 || code > 0xdfff) &&
    !char.normalize('NFKC').includes('\u03a3') &&
    !CONTEXTUAL_OUTPUT.test(normalized)
  const outputs = [...normalized]
  return {
    joins,
    outputs,
    normalized,
    light,
    inTerms: outputs.flatMap((out) => [out, katakanaOf(out)]),
    mark: outputs.some((out) => SPELLING_MARKS.has(out)),
    latinOutput: outputs.some(isLatinWordChar),
  }
}

/**
 * Whether the character that is not plain at a position can take part in a match of `terms`
 * once normalised: it joins its neighbour, or normalises to a character of a term (kana in either
 * script) or to a mark a spelling may hold.
 * why: a page holding none of the terms as they are was normalised in a window around every such
 * character (① ℃ ㈱, a few hundred on a long page: most of a long-page answer); one that gives
 * none of the terms' characters cannot make a match there
 */
export function contributingCharacters(
  outputs: CharacterOutputs,
  terms: readonly string[],
): (text: string, at: number) => boolean {
  const characters = new Set(terms.join(''))
  // why: beside a Latin term, a character normalising to a letter or digit decides whether the
  // term is a whole word there (℃ → °c before `tea`)
  const latin = terms.some((term) => term && !isCjkTerm(term))
  return (text, at) => {
    const { joins, outputs: outs } = outputs.of(text.codePointAt(at)!)
    if (joins) return true
    for (const out of outs) {
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

/** Whether some character of `text` that is not plain can take part in a match of `terms`. */
export function anyContributes(
  outputs: CharacterOutputs,
  text: string,
  terms: readonly string[],
): boolean {
  const { notPlain } = outputs
  notPlain.lastIndex = 0
  const contributes = contributingCharacters(outputs, terms)
  for (let odd = notPlain.exec(text); odd; odd = notPlain.exec(text)) {
    if (contributes(text, odd.index)) return true
  }
  return false
}

/**
 * Whether a character that is not plain before `end` can take part in a match of `terms` (see
 * contributingCharacters), or, beside a Latin term, is a letter or digit as it is (its word
 * check may change once normalised).
 */
export function contributesBefore(
  outputs: CharacterOutputs,
  text: string,
  terms: readonly string[],
  end: number,
): boolean {
  const { notPlain } = outputs
  notPlain.lastIndex = 0
  const contributes = contributingCharacters(outputs, terms)
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
export function plainnessFor(
  outputs: CharacterOutputs,
  plain: TextPlainness,
  terms: readonly string[],
): TextPlainness {
  return typeof plain === 'string' && !anyMayContribute(outputs, plain, terms) ? true : plain
}

/**
 * Whether the characters `keys` (all of a text's that are not plain) can change a match of
 * `terms` only by being Latin word characters once normalised (① → 1, ℃ → °c beside a Latin
 * term): each normalises alone (textOrigins.ts, lightlyNormalized) to nothing a term's pattern
 * finds, and the terms are Japanese or ASCII (their patterns find plain characters alone). The
 * text is then searched as it is, each word check seeing its neighbours normalised
 * (lightWordCharAt): what searching the lightly normalised text finds, at the same positions.
 */
export function wordChecksOnly(
  outputs: CharacterOutputs,
  keys: string,
  terms: readonly string[],
): boolean {
  for (const term of terms) {
    if (!isCjkCode(term.charCodeAt(0)) && !isCjkTerm(term) && !ASCII_TERM.test(term)) return false
  }
  for (const char of keys) {
    if (!outputs.of(char.codePointAt(0)!).light || keyMayContribute(outputs, char, terms, false)) {
      return false
    }
  }
  return true
}

/**
 * Whether the character before (`before`) or after a match, at `i`, is a Latin word character
 * in lightly normalised text: a character that is not plain as its normal form has it there.
 */
export function lightWordCharAt(
  outputs: CharacterOutputs,
  text: string,
  i: number,
  before: boolean,
): boolean {
  if (i < 0 || i >= text.length) return false
  const unit = text.charCodeAt(i)
  if (unit < 0x80 || isPlainText(text[i]!)) return isLatinWordChar(text[i])
  // why: a pair ending before the match is looked up by its first half
  const pair = before && unit >= 0xdc00 && unit <= 0xdfff && i > 0 && isHighSurrogate(text, i - 1)
  const { normalized } = outputs.of(text.codePointAt(pair ? i - 1 : i)!)
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
export function anyMayContribute(
  outputs: CharacterOutputs,
  keys: string,
  terms: readonly string[],
): boolean {
  // why: a few keys against a few terms, at every result: no set of the terms' characters and no
  // function made per call (each cost more than the look itself)
  const latin = terms.some((term) => term && !isCjkTerm(term))
  for (const char of keys) if (keyMayContribute(outputs, char, terms, latin)) return true
  for (let i = 0; i < keys.length; i++) {
    const code = keys.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdfff && keyMayContribute(outputs, keys[i]!, terms, latin)) {
      return true
    }
  }
  return false
}

/** contributingCharacters's test for one character, and the Latin word check beside it. */
function keyMayContribute(
  outputs: CharacterOutputs,
  char: string,
  terms: readonly string[],
  latin: boolean,
): boolean {
  // why: what the character gives is worked out once (CharacterOutputs): this runs for each
  // listed character of each result's page, twice (first match, excerpt)
  const { joins, mark, latinOutput, inTerms } = outputs.of(char.codePointAt(0)!)
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

/** Whether `char` is a letter or digit of a Latin word (not Japanese, not punctuation). */
export function isLatinWordChar(char: string | undefined): boolean {
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
 * compiles its Unicode classes, a cost a cold start of a Latin query would otherwise pay
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
export function isCjkCode(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x309d && code <= 0x30fc && code !== 0x30a0 && code !== 0x30fb)
  )
}
