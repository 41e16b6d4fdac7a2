import { normalizeSearchText } from './textNormalization.js'

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆ヶ'
const CJK_CHAR = new RegExp(`[${CJK}]`, 'u')
// why: a Japanese run, or a run of other letters and digits (`\p{L}` alone would include kana);
// set subtraction (`v`) rather than a lookahead per character halves the first search's cost
// of compiling and running it (2.2 instead of 3.9 ms)
const RUN = new RegExp(`[${CJK}]+|[[\\p{L}\\p{N}]--[${CJK}]]+`, 'gv')
const SEGMENT_CHUNK_LENGTH = 2000
const SENTENCE_END = /(?<=[。！？!?\n])/u

/** True when the string starts with a Japanese/Chinese character (kanji, kana). */
export function isCjkTerm(term: string): boolean {
  return CJK_CHAR.test(term.charAt(0))
}

/** The runs of Japanese characters in already normalized text: `tokoname急須 の` → `急須`, `の`. */
export function cjkRuns(text: string): string[] {
  return (text.match(RUN) ?? []).filter(isCjkTerm)
}

/**
 * Overlapping character bigrams for runs of Japanese characters, whole words for everything
 * else: `新幹線で` → `新幹 幹線 線で`, `Tokoname急須` → `tokoname 急須`.
 */
export function tokenizeBigrams(text: string): string[] {
  const tokens: string[] = []
  for (const run of normalizeSearchText(text).match(RUN) ?? []) {
    if (!isCjkTerm(run) || run.length === 1) {
      tokens.push(run)
      continue
    }
    for (let i = 0; i + 1 < run.length; i++) tokens.push(run.slice(i, i + 2))
  }
  return tokens
}

let segmenter: Intl.Segmenter | null = null

/**
 * Dictionary word segmentation (ICU via `Intl.Segmenter`): `予約商品の入荷` → `予約 商品 の 入荷`.
 * Compounds the dictionary knows stay whole (`新幹線`).
 */
export function tokenizeWords(text: string): string[] {
  segmenter ??= new Intl.Segmenter('ja', { granularity: 'word' })
  const tokens: string[] = []
  for (const chunk of splitIntoChunks(normalizeSearchText(text), SEGMENT_CHUNK_LENGTH)) {
    for (const part of segmenter.segment(chunk)) {
      if (part.isWordLike) tokens.push(part.segment)
    }
  }
  return tokens
}

/** Both of the above: dictionary words plus bigrams of the Japanese runs. */
export function tokenizeWordsAndBigrams(text: string): string[] {
  const bigrams = tokenizeBigrams(text)
  const words = tokenizeWords(text).filter((word) => isCjkTerm(word) && word.length > 2)
  return bigrams.concat(words)
}

/**
 * Splits long text at sentence and line ends into pieces of at most `maxLength` characters.
 * why: on Node 20 Intl.Segmenter's time grows quadratically with the input length (160 KB
 * takes 21 s); pieces of a few KB keep it linear.
 */
export function splitIntoChunks(text: string, maxLength: number): string[] {
  if (text.length <= maxLength) return [text]
  const chunks: string[] = []
  let current = ''
  for (const sentence of text.split(SENTENCE_END)) {
    if (current.length + sentence.length > maxLength && current) {
      chunks.push(current)
      current = ''
    }
    current += sentence
    while (current.length > maxLength) {
      chunks.push(current.slice(0, maxLength))
      current = current.slice(maxLength)
    }
  }
  if (current) chunks.push(current)
  return chunks
}
