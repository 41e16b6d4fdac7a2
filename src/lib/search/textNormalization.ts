/** Maximum query length in characters after trimming (§4.11, §8, D6). */
const MAX_QUERY_LENGTH = 200

/**
 * Folds full-width/half-width forms and letter case together (D11): `ＴＯＫＯＮＡＭＥ`, `tokoname`
 * and `Tokoname` all become `tokoname`; half-width `ｷｭｳｽ` becomes `キュウス`.
 */
export function normalizeSearchText(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

// why: the characters NFKC turns into one character on their own, never joining a neighbour:
// kana, the CJK Unified Ideographs, Japanese punctuation, the ideographic space, full-width
// ASCII (！？（）％ are why most real pages were not plain) and half-width katakana but the
// (semi-)voiced marks ﾞ ﾟ, which join the kana before them
const PLAIN_JAPANESE: ReadonlyArray<readonly [number, number]> = [
  [0x4e00, 0x9fff],
  [0x3000, 0x3029],
  [0x3030, 0x3035],
  [0x3037, 0x3037],
  [0x303b, 0x3098],
  [0x309d, 0x309e],
  [0x30a0, 0x30fe],
  [0xff01, 0xff5e],
  [0xff61, 0xff9d],
]

/**
 * Whether `normalizeSearchText` changes `text` one character for one, each on its own, so that
 * folded terms can be found in it as it is (query/termPattern.ts): true for text of ASCII and the
 * characters listed above, false for anything else (combining marks, ﾞ, ①, ㈱…), even where it
 * would not change.
 */
export function isPlainText(text: string): boolean {
  return !NOT_PLAIN_CHARACTER.test(text)
}

/**
 * Finds the characters that are not plain (see isPlainText), global: `lastIndex` is the caller's.
 * why: a page is searched as it is but near these, where normalising may change what matches
 */
export function notPlainCharacters(): RegExp {
  const ranges = PLAIN_JAPANESE.map(([from, to]) => `\\u${hex(from)}-\\u${hex(to)}`).join('')
  return new RegExp(`[^\\u0000-\\u007f${ranges}]`, 'g')
}

// why: a regular expression scans kanji and kana several times faster than a loop over codes;
// without the global flag, so a test keeps no position (V8 compiles it at its first test)
const NOT_PLAIN_CHARACTER = new RegExp(notPlainCharacters().source)

/**
 * The distinct characters of `text` that are not plain, as a scan with notPlainCharacters meets
 * them (a code point at its first UTF-16 unit, a low surrogate alone at its own), joined in the
 * order met; null when there are more than `max`.
 */
export function notPlainKeys(text: string, max: number): string | null {
  const scan = notPlainCharacters()
  const keys = new Set<string>()
  for (let odd = scan.exec(text); odd; odd = scan.exec(text)) {
    keys.add(String.fromCodePoint(text.codePointAt(odd.index)!))
    if (keys.size > max) return null
  }
  return [...keys].join('')
}

function hex(code: number): string {
  return code.toString(16).padStart(4, '0')
}

/** Cuts a string to at most `max` code points without splitting a surrogate pair. */
function cutToCodePoints(text: string, max: number): string {
  const codePoints = Array.from(text)
  return codePoints.length <= max ? text : codePoints.slice(0, max).join('')
}

/**
 * The query as the search answers it in `query`: trimmed, cut at 200 characters, NFKC,
 * lower-cased, runs of white space collapsed to one space.
 */
export function normalizeQuery(raw: string): string {
  const cut = cutToCodePoints(raw.trim(), MAX_QUERY_LENGTH)
  // why: NFKC can expand a character (㍿ → 株式会社), so cut again after normalising
  const normalized = normalizeSearchText(cut).replace(/\s+/gu, ' ').trim()
  return cutToCodePoints(normalized, MAX_QUERY_LENGTH)
}
