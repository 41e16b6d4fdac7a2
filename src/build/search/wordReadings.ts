import { createRequire } from 'node:module'
import path from 'node:path'
import kuromoji from 'kuromoji'
import { foldJapaneseRun } from '../../lib/search/terms/kanaFolding.js'
import type { WordReading } from '../../lib/search/index/readingTable.js'

/*
 * The build's readings of kanji words (docs/search.md, "Readings"): a page's title, tags and
 * description read by kuromoji with its IPADIC dictionary, each word holding a kanji with its
 * reading, compounds whole and by parts. Only the build loads the analyser: its dictionary
 * (~18 MB) never goes into a function's bundle (tests/foundation/bundles.test.ts).
 */

/** Splits text into words with their readings (katakana; none for unknown words). */
export type ReadingAnalyser = (text: string) => readonly AnalysedWord[]

export interface AnalysedWord {
  surface: string
  /** Katakana, as the dictionary reads the word; absent for words it does not know. */
  reading?: string
}

/** Where the npm package keeps its IPADIC dictionary (`kuromoji/dict`). */
function dictionaryPath(): string {
  const require = createRequire(import.meta.url)
  return path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict')
}

/** Loads kuromoji's dictionary (about half a second) and answers with its tokenizer. */
export function loadReadingAnalyser(): Promise<ReadingAnalyser> {
  return new Promise((resolve, reject) => {
    kuromoji.builder({ dicPath: dictionaryPath() }).build((error, tokenizer) => {
      if (error) {
        reject(
          new Error(
            `The Japanese dictionary could not be loaded from ${dictionaryPath()}: ${error.message}. ` +
              'Run `npm ci` to install kuromoji.',
          ),
        )
        return
      }
      resolve((text) =>
        tokenizer.tokenize(text).map((token) => ({
          surface: token.surface_form,
          ...(token.reading && token.reading !== '*' ? { reading: token.reading } : {}),
        })),
      )
    })
  })
}

const KANJI = /[\p{Script=Han}々〆ヶ]/u
const KANA_ONLY = /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u
// why: a compound of more words is a phrase; its parts are found by the pieces below
const MAX_COMPOUND_WORDS = 4

/**
 * Corrections of readings the dictionary gets wrong (front matter `reading:`, e.g. `常滑焼:
 * とこなめやき`): each word read as given wherever it occurs, longest word first.
 */
export type ReadingCorrections = ReadonlyMap<string, string>

/** True for a reading as front matter may give it: kana and long-vowel marks only. */
export function isReading(text: string): boolean {
  return KANA_ONLY.test(text)
}

/**
 * Every word of `text` holding a kanji with its reading (folded katakana): each word the
 * analyser reads, and each run of up to four such words written together, whole (`南部鉄器` →
 * `ナンブテッキ` beside `南部` and `鉄器`). `corrections` are read as they give.
 */
export function kanjiWordReadings(
  analyse: ReadingAnalyser,
  text: string,
  corrections: ReadingCorrections,
  maxWords = MAX_COMPOUND_WORDS,
): WordReading[] {
  const words = correctedWords(analyse, text.normalize('NFKC'), corrections)
  const found: WordReading[] = []
  let run: AnalysedWord[] = []
  const endRun = (): void => {
    for (let start = 0; start < run.length; start++) {
      let word = ''
      let reading = ''
      for (let end = start; end < run.length && end - start < maxWords; end++) {
        word += run[end]!.surface
        reading += run[end]!.reading
        found.push({ word, reading: foldJapaneseRun(reading) })
      }
    }
    run = []
  }
  for (const word of words) {
    if (word.reading && KANJI.test(word.surface) && isReading(word.reading)) run.push(word)
    else endRun()
  }
  endRun()
  return found
}

function correctedWords(
  analyse: ReadingAnalyser,
  text: string,
  corrections: ReadingCorrections,
): AnalysedWord[] {
  if (corrections.size === 0) return [...analyse(text)]
  const known = [...corrections.keys()].sort((a, b) => b.length - a.length)
  const words: AnalysedWord[] = []
  let from = 0
  for (let i = 0; i < text.length;) {
    const word = known.find((candidate) => text.startsWith(candidate, i))
    if (!word) {
      i++
      continue
    }
    if (from < i) words.push(...analyse(text.slice(from, i)))
    words.push({ surface: word, reading: corrections.get(word)! })
    i += word.length
    from = i
  }
  if (from < text.length) words.push(...analyse(text.slice(from)))
  return words
}

/** The pairs of `readings` once each, in a stable order (by word, then reading). */
export function uniqueReadings(readings: Iterable<WordReading>): WordReading[] {
  const seen = new Map<string, WordReading>()
  for (const entry of readings) seen.set(`${entry.word}\t${entry.reading}`, entry)
  return [...seen.values()].sort((a, b) =>
    a.word < b.word
      ? -1
      : a.word > b.word
        ? 1
        : a.reading < b.reading
          ? -1
          : a.reading > b.reading
            ? 1
            : 0,
  )
}

/** What the build reads of a page. */
export interface ReadPage {
  id: string
  title: string
  description: string
  tags: readonly string[]
  text: string
  readings?: Readonly<Record<string, string>>
}

/** A page's kanji words with their readings, by where they stand. */
export interface PageReadings {
  title: WordReading[]
  /** By tag, in the page's order. */
  tags: WordReading[][]
  /** The description's, and what is read of the body (see BodyReading). */
  rest: WordReading[]
}

/**
 * Every page's front matter corrections (`reading:`) together: a word has one reading on the
 * whole site. Throws when two pages give one word two readings.
 */
export function readingCorrections(pages: readonly ReadPage[]): Map<string, string> {
  const corrections = new Map<string, { reading: string; page: string }>()
  for (const page of pages) {
    for (const [word, reading] of Object.entries(page.readings ?? {})) {
      const key = word.normalize('NFKC')
      const folded = foldJapaneseRun(reading.normalize('NFKC'))
      const known = corrections.get(key)
      if (known && known.reading !== folded) {
        throw new Error(
          `${page.id}: reading of ${word} is ${reading}, but ${known.page} reads it ${known.reading}. ` +
            'Give a word one reading in every page that corrects it.',
        )
      }
      corrections.set(key, { reading: folded, page: page.id })
    }
  }
  return new Map([...corrections].map(([word, { reading }]) => [word, reading]))
}

/**
 * What the build reads of a page's body (docs/search.md, "Decision: the body's okurigana words"):
 * `okurigana`, its words of two kanji or more written with okurigana (`引き出す`, `見積り`) only;
 * `all`, every kanji word; `none`, nothing.
 */
export type BodyReading = 'none' | 'okurigana' | 'all'

/**
 * The readings of the body's pieces already read, by piece: bodies repeat their words, and a
 * piece is read once per build. Made by the caller for one build.
 */
export type BodyPieceReadings = Map<string, WordReading[]>

// why: a piece of text that may hold a word written with okurigana: kanji, then up to two groups
// of one or two kana each followed by kanji (`引き出`), then up to three kana (`引き出すと`,
// `見積もり`, `引出す`); a longer kana group, or a particle alone between kanji (`茶の器`), is
// a sentence's grammar, not a word's okurigana
const OKURIGANA_PIECE =
  /[\p{Script=Han}々〆ヶ]+(?:(?![のをがはへやにでともか][\p{Script=Han}々〆ヶ])[\p{Script=Hiragana}]{1,2}[\p{Script=Han}々〆ヶ]+){0,2}(?![のをがはへやにでともか])[\p{Script=Hiragana}]{0,3}/gu
const KANA_END = /\p{Script=Hiragana}$/u
const HAN = /[\p{Script=Han}々〆ヶ]/gu

/**
 * Whether a word is one whose okurigana may be written otherwise: two kanji or more, with kana
 * (`引き出す`, `引出す`, `見積り`); such words find each other through their reading.
 */
export function hasOkurigana(word: string): boolean {
  const kanji = word.match(HAN)?.length ?? 0
  return kanji >= 2 && kanji < [...word].length
}

/**
 * The words written with okurigana in a body (`hasOkurigana`), with their readings: only the
 * pieces that may hold one are read, each once per build (`read`).
 */
export function bodyOkuriganaReadings(
  analyse: ReadingAnalyser,
  text: string,
  corrections: ReadingCorrections,
  read: BodyPieceReadings,
): WordReading[] {
  const found: WordReading[] = []
  for (const [piece] of text.normalize('NFKC').matchAll(OKURIGANA_PIECE)) {
    if ((piece.match(HAN)?.length ?? 0) < 2 || !hasOkurigana(piece)) continue
    let words = read.get(piece)
    if (!words) {
      // why: a word with okurigana is one or two of the analyser's words (`書き` + `込み`) and
      // ends in kana; longer runs of a body's words are phrases no shopper types
      words = kanjiWordReadings(analyse, piece, corrections, 2).filter(
        ({ word }) => hasOkurigana(word) && KANA_END.test(word),
      )
      read.set(piece, words)
    }
    found.push(...words)
  }
  return found
}

/**
 * The kanji words of a page's title, tags and description, and of its body as `body` says
 * (`read`: the body pieces read so far in this build).
 */
export function pageReadings(
  analyse: ReadingAnalyser,
  page: ReadPage,
  corrections: ReadingCorrections,
  body: BodyReading,
  read: BodyPieceReadings = new Map(),
): PageReadings {
  // why: sentence by sentence: the analyser's lattice grows with the text it is given
  const sentences = (text: string): WordReading[] =>
    text.split(/(?<=[。！？!?\n])/).flatMap((part) => kanjiWordReadings(analyse, part, corrections))
  const description = sentences(page.description)
  return {
    title: sentences(page.title),
    tags: page.tags.map(sentences),
    rest:
      body === 'all'
        ? [...description, ...sentences(page.text)]
        : body === 'okurigana'
          ? [...description, ...bodyOkuriganaReadings(analyse, page.text, corrections, read)]
          : description,
  }
}
