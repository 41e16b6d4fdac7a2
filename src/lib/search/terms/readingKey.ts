import { foldJapaneseRun, isKana } from './kanaFolding.js'

/*
 * The key a reading is looked up by (docs/search.md, "Readings"), the same for the readings the
 * build stores and for what a shopper types (kana, or romaji as kana): long vowels written
 * either way fold together, as shoppers write them as often one way as the other (`kyusu`,
 * `kyuusu`, `きゅーす` are all `キュウス`).
 */

// why: the vowel each kana ends in, for telling a long vowel (オウ, ウウ, オオ) from two syllables
const VOWEL_OF = new Map<string, string>()
for (const [vowel, kana] of [
  ['a', 'アカガサザタダナハバパマヤャラワァ'],
  ['i', 'イキギシジチヂニヒビピミリヰィ'],
  ['u', 'ウクグスズツヅヌフブプムユュルゥヴ'],
  ['e', 'エケゲセゼテデネヘベペメレヱェ'],
  ['o', 'オコゴソゾトドノホボポモヨョロヲォ'],
] as const) {
  for (const char of kana) VOWEL_OF.set(char, vowel)
}

/**
 * Katakana (or hiragana) text as its reading key: folded (kanaFolding.ts), then a long-vowel
 * mark, an ウ after a kana ending in o or u, and a vowel after a kana ending in the same vowel
 * dropped (`キュウス`, `キュース`, `キュス` → `キュス`; `トウキョウ`, `トーキョー` → `トキョ`;
 * `コーヒー`, `koohii` → `コヒ`).
 */
export function readingKey(kana: string): string {
  const folded = foldJapaneseRun(kana)
  let key = ''
  let vowel = ''
  for (const char of folded) {
    if (char === 'ー') continue
    if (
      (char === 'ウ' && (vowel === 'o' || vowel === 'u')) ||
      (char === 'オ' && vowel === 'o') ||
      (char === 'イ' && vowel === 'i') ||
      (char === 'ア' && vowel === 'a') ||
      (char === 'エ' && vowel === 'e')
    ) {
      vowel = ''
      continue
    }
    key += char
    vowel = VOWEL_OF.get(char) ?? ''
  }
  return key
}

/** True when every character of `text` is kana or a long-vowel mark (a reading as typed). */
export function isKanaWord(text: string): boolean {
  if (!text) return false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (!isKana(code) && code !== 0x30fc) return false
  }
  return true
}
