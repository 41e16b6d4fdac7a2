/** Maximum query length in characters after trimming (§4.11, §8, D6). */
const MAX_QUERY_LENGTH = 200

/**
 * Folds full-width/half-width forms and letter case together (D11): `ＴＯＫＯＮＡＭＥ`, `tokoname`
 * and `Tokoname` all become `tokoname`; half-width `ｷｭｳｽ` becomes `キュウス`.
 */
export function normalizeSearchText(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

// why: the Japanese characters NFKC keeps as they are and never joins with a neighbour: kana,
// the CJK Unified Ideographs, Japanese punctuation but the ideographic space (U+3000)
const PLAIN_JAPANESE: ReadonlyArray<readonly [number, number]> = [
  [0x4e00, 0x9fff],
  [0x3001, 0x3029],
  [0x3030, 0x3035],
  [0x3037, 0x3037],
  [0x303b, 0x3098],
  [0x309d, 0x309e],
  [0x30a0, 0x30fe],
]

/**
 * Whether `normalizeSearchText` changes `text` only by lower-casing ASCII letters, one
 * character for one: true for text of ASCII and the kana, kanji and punctuation listed above,
 * false for anything else (full-width forms, half-width kana, combining marks…), even where
 * it would not change.
 */
export function isPlainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (!isPlainJapanese(code)) return false
  }
  return true
}

function isPlainJapanese(code: number): boolean {
  for (const [from, to] of PLAIN_JAPANESE) if (code >= from && code <= to) return true
  return false
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
