import { camelCaseParts, foldJapaneseRun } from './kanaFolding.js'

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆ヶ'
const CJK_CHAR = new RegExp(`[${CJK}]`, 'u')
const OTHER = 0
const JAPANESE = 1
const WORD = 2
type CharKind = typeof OTHER | typeof JAPANESE | typeof WORD
// why: V8 compiles `\p{L}\p{N}` at its first use, a cost a cold start's first query would pay;
// it is needed only for a character that is neither ASCII nor Japanese (V8 compiles a regular
// expression when it first runs, not where it is written)
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
// why: each BMP character's kind is tested once (0 = not yet known, else kind + 1), several
// times faster than a regular expression over every character of a large site's text; a table
// of a pure function, the same for every caller
const bmpKinds = new Uint8Array(0x10000)

/** True when the string starts with a Japanese/Chinese character (kanji, kana). */
export function isCjkTerm(term: string): boolean {
  // why: no ASCII character is Japanese; a Latin query's words and terms are told without the
  // expression, whose first use compiles its script classes (a cost to a cold start)
  if (!(term.charCodeAt(0) >= 0x80)) return false
  return CJK_CHAR.test(term.charAt(0))
}

/** The runs of Japanese characters in already normalized text: `tokoname急須 の` → `急須`, `の`. */
export function cjkRuns(text: string): string[] {
  return textRuns(text).filter(isCjkTerm)
}

/**
 * The runs of Japanese characters (kanji, kana, ー々〆ヶ) and the runs of other letters and
 * digits, in order; everything else separates runs: `v60と珈琲、ok` → `v60`, `と珈琲`, `ok`.
 */
export function textRuns(text: string): string[] {
  const runs: string[] = []
  let runStart = 0
  let runKind: CharKind = OTHER
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i)!
    const width = code > 0xffff ? 2 : 1
    const kind = code > 0xffff ? kindOf(text.slice(i, i + 2), code) : bmpKindOf(text, i, code)
    if (kind !== runKind) {
      if (runKind !== OTHER) runs.push(text.slice(runStart, i))
      runStart = i
      runKind = kind
    }
    i += width
  }
  if (runKind !== OTHER) runs.push(text.slice(runStart))
  return runs
}

function bmpKindOf(text: string, i: number, code: number): CharKind {
  let known = bmpKinds[code]!
  if (known === 0) {
    known = kindOf(text[i]!, code) + 1
    bmpKinds[code] = known
  }
  return (known - 1) as CharKind
}

function kindOf(char: string, code: number): CharKind {
  if (code < 0x80) {
    const lower = code | 0x20
    return (code >= 0x30 && code <= 0x39) || (lower >= 0x61 && lower <= 0x7a) ? WORD : OTHER
  }
  if (CJK_CHAR.test(char)) return JAPANESE
  return LETTER_OR_DIGIT.test(char) ? WORD : OTHER
}

/**
 * Overlapping character bigrams for runs of Japanese characters, whole words for everything
 * else: `新幹線で` → `新幹 幹線 線で`, `Tokoname急須` → `tokoname 急須`. Japanese runs are folded
 * first (kanaFolding.ts: `こーひー` = `コーヒー` = `コーヒ`); a Latin word whose case changes inside
 * also gives its parts (`GitHub` → `github git hub`). Used at index and at query time alike.
 */
export function tokenizeBigrams(text: string): string[] {
  const tokens: string[] = []
  const nfkc = text.normalize('NFKC')
  const lowered = nfkc.toLowerCase()
  // why: camel case is seen in the text before lower-casing; positions agree when lower-casing
  // keeps the length (it does but for a few letters such as İ)
  const cased = lowered.length === nfkc.length && lowered !== nfkc ? nfkc : null
  let position = 0
  for (const run of textRuns(lowered)) {
    if (cased) position = lowered.indexOf(run, position)
    if (!isCjkTerm(run)) {
      tokens.push(run)
      if (cased) tokens.push(...camelCaseParts(cased.slice(position, position + run.length)))
      position += run.length
      continue
    }
    position += run.length
    const folded = foldJapaneseRun(run)
    if (folded.length < 2) {
      if (folded) tokens.push(folded)
      continue
    }
    for (let i = 0; i + 1 < folded.length; i++) tokens.push(folded.slice(i, i + 2))
  }
  return tokens
}
