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
// why: compiled once per term and kept for the next answers (a few hundred at most)
const patterns = new Map<string, RegExp | null>()
const MAX_PATTERNS = 500
let halfWidth: Map<number, string> | null = null

/**
 * The global expression finding `term`'s spellings (its `lastIndex` is the caller's), or null when
 * the term has one spelling, itself (kanji only, say): then `indexOf` finds it faster.
 */
export function termPattern(term: string): RegExp | null {
  let pattern = patterns.get(term)
  if (pattern === undefined) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear()
    // why: an ASCII term's letters are listed in both cases instead of the `i` flag, which made
    // V8 scan 3–4 times slower (the same characters: checked for all of ASCII in the tests)
    const ascii = ASCII_TERM.test(term)
    const source = termSource(term, ascii)
    pattern = source === term ? null : new RegExp(source, ascii ? 'g' : 'gi')
    patterns.set(term, pattern)
  }
  return pattern
}

const ASCII_TERM = /^[\x21-\x7e]*$/

/**
 * The length of every match of `term`'s pattern (termPattern), or null where it varies (a kana
 * term's long-vowel mark is optional) or the term has no pattern.
 * why: where it is known, a match's start follows from its end, so the pattern is tested (no
 * match object made) rather than run
 */
export function termMatchLength(term: string, pattern = termPattern(term)): number | null {
  // why: an ASCII term's pattern (the one without the `i` flag) is one class of single
  // characters per character of the term
  return pattern !== null && !pattern.ignoreCase ? term.length : null
}

function termSource(term: string, bothCases: boolean): string {
  let source = ''
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i)
    const previous = i > 0 ? term.charCodeAt(i - 1) : 0
    const next = i + 1 < term.length ? term.charCodeAt(i + 1) : 0
    source += characterSource(code, previous, bothCases)
    // why: the fold drops a long-vowel mark that ends a kana word (kanaFolding.ts)
    if (isKana(code) && next !== 0x30fc && !isKana(next)) source += `${LONG_VOWELS}?`
  }
  return source
}

// why: a cold start of a Latin query compiled the patterns of its ~60 fuzzy and prefix
// expansions, working out each of their letters again (~0.6 ms); a character that is no kana
// depends only on itself, the case flag and whether it repeats the one before
const otherSources = new Map<number, string>()
const MAX_OTHER_SOURCES = 4000

function characterSource(code: number, previous: number, bothCases: boolean): string {
  // why: a Latin term's letters (lower case, folded) are most characters spelled: their
  // spellings in spelledSource's order, the case pair and full-width forms, without escaping
  if (bothCases && code >= 0x61 && code <= 0x7a) {
    const spellings = String.fromCharCode(code, code + 0xfee0, code - 0x20, code - 0x20 + 0xfee0)
    return `[${spellings}${code === previous ? '々〻' : ''}]`
  }
  if (isKana(code)) return spelledSource(code, previous, bothCases)
  const key = code * 4 + (bothCases ? 2 : 0) + (previous && code === previous ? 1 : 0)
  let source = otherSources.get(key)
  if (source === undefined) {
    if (otherSources.size >= MAX_OTHER_SOURCES) otherSources.clear()
    source = spelledSource(code, previous, bothCases)
    otherSources.set(key, source)
  }
  return source
}

function spelledSource(code: number, previous: number, bothCases: boolean): string {
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
    for (const kana of kanaSpellings(code)) if (!spellings.includes(kana)) spellings.push(kana)
  }
  if (previous && code === previous) spellings.push(...(isKana(code) ? ['ゝ', 'ヽ'] : ['々', '〻']))
  else if (previous && isKana(code) && isKana(previous) && code === voicedOf(previous)) {
    spellings.push('ゞ', 'ヾ')
  }
  if (code === 0x30fc) spellings.push('ｰ')
  const escaped = spellings.map((spelling) => spelling.replace(REGEXP_SPECIAL, '\\$&'))
  return escaped.length === 1 ? escaped[0]! : `[${escaped.join('')}]`
}

/** Every kana that folds to the (folded) kana `code`, half-width ones included. */
function kanaSpellings(code: number): string[] {
  const spellings: string[] = []
  const candidates = [code, code - 0x60, code === 0x30ab ? 0x30f5 : 0, code === 0x30b1 ? 0x30f6 : 0]
  for (const candidate of candidates) {
    if (candidate && foldKana(candidate) === code) spellings.push(String.fromCharCode(candidate))
  }
  const half = halfWidthOf(code)
  if (half) spellings.push(half)
  return spellings
}

function halfWidthOf(code: number): string | undefined {
  if (!halfWidth) {
    halfWidth = new Map()
    for (let half = 0xff66; half <= 0xff9d; half++) {
      const full = String.fromCharCode(half).normalize('NFKC')
      if (full.length === 1) halfWidth.set(full.charCodeAt(0), String.fromCharCode(half))
    }
  }
  return halfWidth.get(code)
}

function voicedOf(code: number): number {
  const composed = (String.fromCharCode(code) + '\u3099').normalize('NFC')
  return composed.length === 1 ? composed.charCodeAt(0) : 0
}
