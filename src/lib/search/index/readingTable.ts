import { readingKey } from '../terms/readingKey.js'

/*
 * The readings of the site's kanji words, as the build found them (docs/search.md, "Readings";
 * build/search/wordReadings.ts) and the data file stores them (the `readings` section, read at
 * the first query that looks a reading up).
 */

/** A word holding a kanji as a page writes it (NFKC) and its reading (folded katakana). */
export interface WordReading {
  word: string
  reading: string
}

/** The stored readings, looked up without decoding every pair. */
export interface ReadingTable {
  /** The pairs whose reading has the reading key `key` (terms/readingKey.ts), by word. */
  withKey(key: string): WordReading[]
  /** The pairs whose word holds `char` (one character), in the stored order. */
  holding(char: string): WordReading[]
  /** Every pair, in the stored order. */
  all(): WordReading[]
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * The section's bytes: one `word<TAB>reading` line per pair, as UTF-16LE (it decodes many times
 * faster than UTF-8 for Japanese), sorted by reading key, then word and reading.
 * why: a kana query finds its key by a binary search over the lines and a kanji query its
 * character by `indexOf`: an instance's first answer decodes no pair it does not need (parsing
 * every pair and scanning them for a kanji were most of a cold start on a large site)
 */
export function encodeReadings(readings: readonly WordReading[]): Buffer {
  const keyed = readings.map((pair) => ({ ...pair, key: readingKey(pair.reading) }))
  keyed.sort(
    (a, b) => compare(a.key, b.key) || compare(a.word, b.word) || compare(a.reading, b.reading),
  )
  return Buffer.from(keyed.map(({ word, reading }) => `${word}\t${reading}\n`).join(''), 'utf16le')
}

/** The readings of a section written by `encodeReadings`; null when it is damaged. */
export function decodeReadings(bytes: Uint8Array): ReadingTable | null {
  if (bytes.length % 2 !== 0) return null
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf16le')
  if (text !== '' && (!text.endsWith('\n') || !text.includes('\t'))) return null
  let starts: number[] | null = null
  const lineStarts = (): number[] => {
    if (starts) return starts
    starts = []
    for (let at = 0; at < text.length; at = text.indexOf('\n', at) + 1) starts.push(at)
    return starts
  }
  const pairAt = (start: number): WordReading => {
    const tab = text.indexOf('\t', start)
    return { word: text.slice(start, tab), reading: text.slice(tab + 1, text.indexOf('\n', tab)) }
  }
  const keyAt = (start: number): string => readingKey(pairAt(start).reading)
  return {
    withKey(key) {
      const lines = lineStarts()
      let low = 0
      let high = lines.length
      while (low < high) {
        const middle = (low + high) >>> 1
        if (keyAt(lines[middle]!) < key) low = middle + 1
        else high = middle
      }
      const found: WordReading[] = []
      for (let i = low; i < lines.length && keyAt(lines[i]!) === key; i++) {
        found.push(pairAt(lines[i]!))
      }
      return found
    },
    holding(char) {
      const found: WordReading[] = []
      let lastLine = -1
      for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) {
        const start = text.lastIndexOf('\n', at) + 1
        if (start === lastLine) continue
        lastLine = start
        const pair = pairAt(start)
        if (pair.word.includes(char)) found.push(pair)
      }
      return found
    },
    all: () => lineStarts().map(pairAt),
  }
}
