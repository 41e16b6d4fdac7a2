import { foldKana, isKana } from '../terms/kanaFolding.js'

/*
 * A term in its folded form (cjkTokenizer.ts, kanaFolding.ts) as a regular expression that finds
 * every spelling of it in text whose characters each normalise on their own (isPlainText) or in
 * NFKC-normalised text: ASCII letters in any case and full width, kana in either script and half
 * width, a dropped long-vowel mark, iteration marks.
 * why: pages are searched as they are, never folded or copied per answer (the normalising of
 * long pages was most of an answer's time: docs/search.md, "Excerpts without normalising")
 */

const LONG_VOWELS = '[ーｰ]'
const REGEXP_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g
// why: the patterns of the last few hundred terms are kept, far more than an answer uses
const MAX_PATTERNS = 500
// why: a character's source is kept, as the patterns of a Latin query's many prefix and fuzzy
// expansions spell the same letters again and again
const MAX_CHARACTER_SOURCES = 4000

/**
 * Term patterns compiled once and kept for the next answers (workspace.ts): `of(term)` is the
 * global expression finding the term's spellings (its `lastIndex` is the caller's), or null when
 * the term has one spelling, itself (kanji only, say): then `indexOf` finds it faster.
 */
export class TermPatterns {
  readonly #patterns = new Map<string, RegExp | null>()
  /** A character's source by code, case flag and whether it repeats the one before. */
  readonly #characters = new Map<number, string>()
  #halfWidth: Map<number, string> | null = null

  of(term: string): RegExp | null {
    let pattern = this.#patterns.get(term)
    if (pattern === undefined) {
      if (this.#patterns.size >= MAX_PATTERNS) this.#patterns.clear()
      // why: an ASCII term's letters are listed in both cases instead of the `i` flag, with
      // which V8 scans several times slower (the same characters: checked for all of ASCII in
      // the tests)
      const ascii = ASCII_TERM.test(term)
      const source = this.#termSource(term, ascii)
      pattern = source === term ? null : new RegExp(source, ascii ? 'g' : 'gi')
      this.#patterns.set(term, pattern)
    }
    return pattern
  }

  #termSource(term: string, bothCases: boolean): string {
    let source = ''
    for (let i = 0; i < term.length; i++) {
      const code = term.charCodeAt(i)
      const previous = i > 0 ? term.charCodeAt(i - 1) : 0
      const next = i + 1 < term.length ? term.charCodeAt(i + 1) : 0
      source += this.#characterSource(code, previous, bothCases)
      // why: the fold drops a long-vowel mark that ends a kana word (kanaFolding.ts)
      if (isKana(code) && next !== 0x30fc && !isKana(next)) source += `${LONG_VOWELS}?`
    }
    return source
  }

  #characterSource(code: number, previous: number, bothCases: boolean): string {
    // why: a Latin term's letters (lower case, folded) are most characters spelled: their
    // spellings in spelledSource's order, the case pair and full-width forms, without escaping
    if (bothCases && code >= 0x61 && code <= 0x7a) {
      const spellings = String.fromCharCode(code, code + 0xfee0, code - 0x20, code - 0x20 + 0xfee0)
      return `[${spellings}${code === previous ? '々〻' : ''}]`
    }
    if (isKana(code)) return this.#spelledSource(code, previous, bothCases)
    // why: a character that is no kana depends only on itself, the case flag and whether it
    // repeats the one before
    const key = code * 4 + (bothCases ? 2 : 0) + (previous && code === previous ? 1 : 0)
    let source = this.#characters.get(key)
    if (source === undefined) {
      if (this.#characters.size >= MAX_CHARACTER_SOURCES) this.#characters.clear()
      source = this.#spelledSource(code, previous, bothCases)
      this.#characters.set(key, source)
    }
    return source
  }

  #spelledSource(code: number, previous: number, bothCases: boolean): string {
    const char = String.fromCharCode(code)
    const spellings = [char]
    if (code >= 0x21 && code <= 0x7e) spellings.push(String.fromCharCode(code + 0xfee0))
    if (bothCases) {
      for (const spelling of [...spellings]) {
        for (const other of [spelling.toLowerCase(), spelling.toUpperCase()]) {
          if (!spellings.includes(other)) spellings.push(other)
        }
      }
    }
    if (isKana(code)) {
      for (const kana of this.#kanaSpellings(code))
        if (!spellings.includes(kana)) spellings.push(kana)
    }
    if (previous && code === previous)
      spellings.push(...(isKana(code) ? ['ゝ', 'ヽ'] : ['々', '〻']))
    else if (previous && isKana(code) && isKana(previous) && code === voicedOf(previous)) {
      spellings.push('ゞ', 'ヾ')
    }
    if (code === 0x30fc) spellings.push('ｰ')
    const escaped = spellings.map((spelling) => spelling.replace(REGEXP_SPECIAL, '\\$&'))
    return escaped.length === 1 ? escaped[0]! : `[${escaped.join('')}]`
  }

  /** Every kana that folds to the (folded) kana `code`, half-width ones included. */
  #kanaSpellings(code: number): string[] {
    const spellings: string[] = []
    const candidates = [
      code,
      code - 0x60,
      code === 0x30ab ? 0x30f5 : 0,
      code === 0x30b1 ? 0x30f6 : 0,
    ]
    for (const candidate of candidates) {
      if (candidate && foldKana(candidate) === code) spellings.push(String.fromCharCode(candidate))
    }
    this.#halfWidth ??= halfWidthKana()
    const half = this.#halfWidth.get(code)
    if (half) spellings.push(half)
    return spellings
  }
}

const ASCII_TERM = /^[\x21-\x7e]*$/

/**
 * The length of every match of `term`'s `pattern` (TermPatterns), or null where it varies (a
 * kana term's long-vowel mark is optional) or the term has no pattern.
 * why: where it is known, a match's start follows from its end, so the pattern is tested (no
 * match object made) rather than run
 */
export function termMatchLength(term: string, pattern: RegExp | null): number | null {
  // why: an ASCII term's pattern (the one without the `i` flag) is one class of single
  // characters per character of the term
  return pattern !== null && !pattern.ignoreCase ? term.length : null
}

/** The half-width kana of each full-width one that has one. */
function halfWidthKana(): Map<number, string> {
  const halfWidth = new Map<number, string>()
  for (let half = 0xff66; half <= 0xff9d; half++) {
    const full = String.fromCharCode(half).normalize('NFKC')
    if (full.length === 1) halfWidth.set(full.charCodeAt(0), String.fromCharCode(half))
  }
  return halfWidth
}

function voicedOf(code: number): number {
  const composed = (String.fromCharCode(code) + '\u3099').normalize('NFC')
  return composed.length === 1 ? composed.charCodeAt(0) : 0
}
