/*
 * The spelling variants of Japanese that shoppers type and pages write differently, folded to one
 * form, the same at index and query time (docs/search.md, "Decision: spelling variants"). Every
 * step maps one character to one character but the dropped long-vowel mark.
 */

const HIRAGANA_FIRST = 0x3041
const HIRAGANA_LAST = 0x3096
const KATAKANA_OFFSET = 0x60
const LONG_VOWEL = 0x30fc
// why: the small ヵ ヶ are abbreviation marks (一ヶ月, 霞ヶ関) that writers and shoppers spell
// with the large kana as often; the other small kana change the word (きって, きつて) and stay
const SMALL_TO_LARGE: Readonly<Record<number, number>> = { 0x30f5: 0x30ab, 0x30f6: 0x30b1 }
const KANJI_REPEAT = new Set([0x3005, 0x303b]) // 々 〻
const KANA_REPEAT = new Set([0x309d, 0x30fd]) // ゝ ヽ
const KANA_REPEAT_VOICED = new Set([0x309e, 0x30fe]) // ゞ ヾ

/** True for hiragana and katakana letters (not ー nor the iteration marks). */
export function isKana(code: number): boolean {
  return (code >= 0x3041 && code <= 0x3096) || (code >= 0x30a1 && code <= 0x30fa)
}

function isKatakana(code: number): boolean {
  return code >= 0x30a1 && code <= 0x30fa
}

/** One kana in the folded form: hiragana as katakana, ヵ ヶ as カ ケ; anything else as it is. */
export function foldKana(code: number): number {
  const katakana = code >= HIRAGANA_FIRST && code <= HIRAGANA_LAST ? code + KATAKANA_OFFSET : code
  return SMALL_TO_LARGE[katakana] ?? katakana
}

function voiced(code: number): number {
  const composed = (String.fromCharCode(code) + '\u3099').normalize('NFC')
  return composed.length === 1 ? composed.charCodeAt(0) : code
}

/**
 * A run of Japanese characters (already NFKC) in its folded form: hiragana as katakana
 * (`こーひー` = `コーヒー`), ヵ ヶ as カ ケ, iteration marks spelled out (`時々` = `時時`,
 * `いすゞ` = `イスズ`), and a long-vowel mark that ends a kana word dropped (`サーバー` = `サーバ`,
 * as Lucene's JapaneseKatakanaStemFilter does): one at the end of the run, before a kanji or
 * before kana of the other script (`コーヒーを` = `コーヒヲ`).
 */
export function foldJapaneseRun(run: string): string {
  let folded = ''
  let previous = 0
  for (let i = 0; i < run.length; i++) {
    const code = run.charCodeAt(i)
    let out = code
    if (code === LONG_VOWEL) {
      const before = i > 0 ? run.charCodeAt(i - 1) : 0
      if (isKana(before) && endsKanaWord(before, i + 1 < run.length ? run.charCodeAt(i + 1) : 0)) {
        continue
      }
    } else if (KANJI_REPEAT.has(code) && previous && !isKana(previous)) {
      out = previous
    } else if (KANA_REPEAT.has(code) && isKana(previous)) {
      out = previous
    } else if (KANA_REPEAT_VOICED.has(code) && isKana(previous)) {
      out = foldKana(voiced(previous))
    } else {
      out = foldKana(code)
    }
    folded += String.fromCharCode(out)
    previous = out === LONG_VOWEL ? previous : out
  }
  return folded
}

function endsKanaWord(before: number, next: number): boolean {
  if (next === 0 || next === LONG_VOWEL) return next === 0
  if (!isKana(next)) return true
  return isKatakana(before) !== isKatakana(next)
}

/**
 * A Latin word's parts where its letter case changes (`GitHub` → `git`, `hub`; `selectObject`
 * → `select`, `object`; `XMLHttp` → `xml`, `http`), lower-cased; empty when it has one part.
 */
export function camelCaseParts(word: string): string[] {
  const parts = word.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
  return parts.length > 1 ? parts.map((part) => part.toLowerCase()) : []
}
