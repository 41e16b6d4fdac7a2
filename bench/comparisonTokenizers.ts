import { isCjkTerm, tokenizeBigrams } from '../src/lib/search/terms/cjkTokenizer.js'
import { normalizeSearchText } from '../src/lib/search/textNormalization.js'

/*
 * The tokenizers the bigrams were compared with (docs/search.md, "Japanese tokenizer"). Only the
 * benchmark uses them; the search function's bundle carries none of this (a test checks it).
 */

export type TokenizerName = 'bigram' | 'segmenter' | 'segmenter+bigram'

const SEGMENT_CHUNK_LENGTH = 2000
const SENTENCE_END = /(?<=[。！？!?\n])/u

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
function tokenizeWordsAndBigrams(text: string): string[] {
  const bigrams = tokenizeBigrams(text)
  const words = tokenizeWords(text).filter((word) => isCjkTerm(word) && word.length > 2)
  return bigrams.concat(words)
}

/**
 * Splits long text at sentence and line ends into pieces of at most `maxLength` characters.
 * why: on Node 20 Intl.Segmenter's time grows quadratically with the input length (160 KB
 * takes 21 s); pieces of a few KB keep it linear.
 */
function splitIntoChunks(text: string, maxLength: number): string[] {
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

/** Every compared tokenizer by name; `bigram` is the deployed one. */
export const COMPARED_TOKENIZERS: Record<TokenizerName, (text: string) => string[]> = {
  bigram: tokenizeBigrams,
  segmenter: tokenizeWords,
  'segmenter+bigram': tokenizeWordsAndBigrams,
}
