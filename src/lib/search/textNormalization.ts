/** Maximum query length in characters after trimming (§4.11, §8, D6). */
const MAX_QUERY_LENGTH = 200

/**
 * Folds full-width/half-width forms and letter case together (D11): `ＴＯＫＯＮＡＭＥ`, `tokoname`
 * and `Tokoname` all become `tokoname`; half-width `ｷｭｳｽ` becomes `キュウス`.
 */
export function normalizeSearchText(text: string): string {
  return text.normalize('NFKC').toLowerCase()
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
