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
): WordReading[] {
  const words = correctedWords(analyse, text.normalize('NFKC'), corrections)
  const found: WordReading[] = []
  let run: AnalysedWord[] = []
  const endRun = (): void => {
    for (let start = 0; start < run.length; start++) {
      let word = ''
      let reading = ''
      for (let end = start; end < run.length && end - start < MAX_COMPOUND_WORDS; end++) {
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
  /** The description's, and the body's when it is read. */
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

/** The kanji words of a page's title, tags and description (and body with `body`) read. */
export function pageReadings(
  analyse: ReadingAnalyser,
  page: ReadPage,
  corrections: ReadingCorrections,
  body: boolean,
): PageReadings {
  // why: sentence by sentence: the analyser's lattice grows with the text it is given
  const read = (text: string): WordReading[] =>
    text.split(/(?<=[。！？!?\n])/).flatMap((part) => kanjiWordReadings(analyse, part, corrections))
  return {
    title: read(page.title),
    tags: page.tags.map(read),
    rest: body ? [...read(page.description), ...read(page.text)] : read(page.description),
  }
}
