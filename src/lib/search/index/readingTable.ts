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

/** The section's bytes: `[[word, reading], ...]` as UTF-8 JSON. */
export function encodeReadings(readings: readonly WordReading[]): Buffer {
  return Buffer.from(JSON.stringify(readings.map(({ word, reading }) => [word, reading])))
}

/** The readings of a section written by `encodeReadings`; null when it is damaged. */
export function decodeReadings(bytes: Uint8Array): WordReading[] | null {
  let pairs: unknown
  try {
    pairs = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(pairs)) return null
  const readings: WordReading[] = []
  for (const pair of pairs) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      return null
    }
    readings.push({ word: pair[0], reading: pair[1] })
  }
  return readings
}
