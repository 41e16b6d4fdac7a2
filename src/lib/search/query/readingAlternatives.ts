import type { ReadingTable, WordReading } from '../index/readingTable.js'
import { isCjkTerm, textRuns } from '../terms/cjkTokenizer.js'
import { foldJapaneseRun, isKana } from '../terms/kanaFolding.js'
import { isKanaWord, readingKey } from '../terms/readingKey.js'
import { mayBeRomaji, romajiToKana } from '../terms/romaji.js'
import type { AlternativesOf } from './wordTerms.js'

/*
 * The spellings a query word finds through the readings of the site's kanji words (docs/search.md,
 * "Readings"): a word typed in kana finds the kanji words read so (`きゅうす` → `急須`), romaji is
 * tried as kana too (`kyuusu` → `キュウス`, `急須`), and a word written with other okurigana finds
 * the site's spelling of the same reading (`引出す` → `引き出す`).
 */

// why: each spelling widens every term slot of the word; the likeliest few are enough
const MAX_READING_SPELLINGS = 4
// why: a reading of one kana is no word a shopper looks for by its reading
const MIN_READING_KEY = 2
const MAX_COVER_PARTS = 3

interface Entry {
  /** As pages write it (NFKC). */
  word: string
  /** Folded: what the okurigana of a query word is compared with. */
  folded: string
  reading: string
  /** The kanji of the word, in order. */
  skeleton: string
}

/** The lookups of one data file's readings, each made at the first word needing it. */
interface ReadingLookups {
  table: ReadingTable
  /** By reading key, as words in kana or romaji asked for them. */
  byKey: Map<string, Entry[]>
  /** The words of two kanji or more, by their first two kanji (`+`: with kana), as asked for. */
  byFirstKanji: Map<string, Entry[]>
}

/**
 * What each query word also finds through the site's readings (read by `load` at the first word
 * that may need them: kana, romaji, or kanji).
 * why: a word's lookups read only what it asks (a reading key's lines, the lines holding a
 * kanji), as they lie on the first answer of an instance
 */
export function readingAlternatives(load: () => ReadingTable): AlternativesOf {
  let lookups: ReadingLookups | null = null
  const lookupsNow = (): ReadingLookups =>
    (lookups ??= { table: load(), byKey: new Map(), byFirstKanji: new Map() })
  return (word) => {
    const normalized = word.normalize('NFKC').toLowerCase()
    if (mayBeRomaji(normalized)) {
      const kana = romajiToKana(normalized)
      if (kana === null || readingKey(kana).length < MIN_READING_KEY) return []
      return [kana, ...wordsReadAs(keyLookup(lookupsNow()), kana)].slice(0, MAX_READING_SPELLINGS)
    }
    const runs = textRuns(normalized)
    if (runs.length !== 1 || !isCjkTerm(runs[0]!)) return []
    const run = runs[0]!
    if (isKanaWord(run)) return wordsReadAs(keyLookup(lookupsNow()), run)
    return otherOkurigana(lookupsNow(), foldJapaneseRun(run))
  }
}

function entryOf({ word, reading }: WordReading): Entry {
  const folded = foldJapaneseRun(word)
  let skeleton = ''
  for (const char of folded) if (!isKana(char.charCodeAt(0)) && char !== 'ー') skeleton += char
  return { word, folded, reading, skeleton }
}

/** The words of a reading key (none under MIN_READING_KEY), looked up once per key. */
type KeyLookup = (key: string) => Entry[] | undefined

function keyLookup(lookups: ReadingLookups): KeyLookup {
  return (key) => {
    if (key.length < MIN_READING_KEY) return undefined
    let entries = lookups.byKey.get(key)
    if (!entries) {
      entries = lookups.table.withKey(key).map(entryOf)
      lookups.byKey.set(key, entries)
    }
    return entries.length > 0 ? entries : undefined
  }
}

// why: any kana of a word as pages write it (NFKC: no half-width forms)
const KANA = /[\u3041-\u3096\u30a1-\u30fa]/

/**
 * The site's words of two kanji or more starting with the kanji `first`, then `second`;
 * `withKana`: only those holding kana (a query word of kanji alone can only be another spelling
 * of a word with kana).
 * why: only the lines holding both kanji are folded (the lines holding a common kanji are many)
 */
function startingWith(
  lookups: ReadingLookups,
  first: string,
  second: string,
  withKana: boolean,
): Entry[] {
  const memo = `${first}${second}${withKana ? '+' : ''}`
  let entries = lookups.byFirstKanji.get(memo)
  if (!entries) {
    entries = []
    for (const reading of lookups.table.holding(first)) {
      if (withKana && !KANA.test(reading.word)) continue
      if (first !== second && !reading.word.includes(second)) continue
      const entry = entryOf(reading)
      if (entry.skeleton[0] === first && entry.skeleton[1] === second) entries.push(entry)
    }
    lookups.byFirstKanji.set(memo, entries)
  }
  return entries
}

/**
 * The kanji words read as `kana`; when none is, the words whose readings written one after
 * another make it (`なんぶてつびん` → `南部 鉄瓶`), the longest first part first.
 */
function wordsReadAs(byKey: KeyLookup, kana: string): string[] {
  const key = readingKey(kana)
  if (key.length < MIN_READING_KEY) return []
  const whole = byKey(key)
  if (whole) return preferred(whole)
  const parts = cover(byKey, key, 0)
  return parts ? [parts.join(' ')] : []
}

/** The words of one reading, the shortest spellings first (the word, not a phrase holding it). */
function preferred(entries: readonly Entry[]): string[] {
  const words = [...new Set(entries.map((entry) => entry.word))]
  words.sort((a, b) => a.length - b.length)
  return words.slice(0, MAX_READING_SPELLINGS)
}

function cover(byKey: KeyLookup, key: string, depth: number): string[] | null {
  if (depth >= MAX_COVER_PARTS) return null
  for (let cut = key.length - MIN_READING_KEY; cut >= MIN_READING_KEY; cut--) {
    const head = byKey(key.slice(0, cut))
    if (!head) continue
    const tail = byKey(key.slice(cut))
    if (tail) return [preferred(head)[0]!, preferred(tail)[0]!]
    const rest = cover(byKey, key.slice(cut), depth + 1)
    if (rest) return [preferred(head)[0]!, ...rest]
  }
  return null
}

/**
 * The word with a site word of the same kanji and reading but other okurigana in its place
 * (`引出す` → `引き出す`, `見積り方法` → `見積もり方法`); `run` is folded.
 * why: both spellings have one reading, and the build read the site's spelling; the query's is
 * checked against that reading (its kana where the reading has them, each kanji at least a kana)
 */
function otherOkurigana(lookups: ReadingLookups, run: string): string[] {
  const found: string[] = []
  const kanjiOnly = !KANA.test(run)
  for (let start = 0; start < run.length && found.length < MAX_READING_SPELLINGS; start++) {
    if (isKana(run.charCodeAt(start))) continue
    // why: a site word has two kanji or more, the query's next kanji its second
    let next = start + 1
    while (next < run.length && isKana(run.charCodeAt(next))) next++
    if (next === run.length) break
    for (const entry of startingWith(lookups, run[start]!, run[next]!, kanjiOnly)) {
      const end = spanEnd(run, start, entry)
      if (end === -1) continue
      const replaced = run.slice(0, start) + entry.word + run.slice(end)
      if (foldJapaneseRun(replaced) !== run && !found.includes(replaced)) found.push(replaced)
      if (found.length === MAX_READING_SPELLINGS) break
    }
  }
  return found
}

/**
 * Where the span of `run` from `start` written as `entry` with other okurigana ends, or -1: the
 * same kanji with only kana between them, each group of kana (between two kanji, and after the
 * last) one that ends the other (`引き出す`/`引出す`, `見積もり`/`見積り`), read as `entry` is
 * or the site's spelling with kana left out that its reading cannot show (`siteLeavesKanaOut`).
 */
function spanEnd(run: string, start: number, entry: Entry): number {
  const theirs = kanaGroups(entry.folded)
  if (!theirs || theirs.skeleton !== entry.skeleton) return -1
  const ours: string[] = []
  let i = start
  for (let k = 0; k < entry.skeleton.length; k++) {
    if (run[i] !== entry.skeleton[k]) return -1
    i++
    let kana = ''
    while (i < run.length && isKana(run.charCodeAt(i))) kana += run[i++]
    ours.push(kana)
  }
  // why: the kana after the last kanji may run on into the next word (`出すと`): the longest
  // ending that fits the reading
  const last = ours.length - 1
  const trailing = ours[last]!
  for (let keep = trailing.length; keep >= 0; keep--) {
    ours[last] = trailing.slice(0, keep)
    // why: kana cut off the end belong to the next word, so the word ends as the site's does
    // (`出すと` is `出す` + `と`); `引出す` is not `引き出し` + `す`
    if (keep < trailing.length && ours[last] !== theirs.groups[last]) continue
    if (!ours.every((group, g) => endsOneAnother(group, theirs.groups[g]!))) continue
    // why: written as the site writes it: nothing to replace (a shorter ending would cut its kana)
    if (ours.every((group, g) => group === theirs.groups[g])) return -1
    if (
      !readAs(entry.skeleton, ours, theirs.groups, entry.reading) &&
      !siteLeavesKanaOut(ours, theirs.groups)
    ) {
      continue
    }
    return i - trailing.length + keep
  }
  return -1
}

function kanaGroups(folded: string): { skeleton: string; groups: string[] } | null {
  let skeleton = ''
  const groups: string[] = []
  for (const char of folded) {
    if (isKana(char.charCodeAt(0))) {
      if (groups.length === 0) return null
      groups[groups.length - 1] += char
    } else {
      skeleton += char
      groups.push('')
    }
  }
  return { skeleton, groups }
}

const endsOneAnother = (a: string, b: string): boolean => a.endsWith(b) || b.endsWith(a)

// why: okurigana before another kanji of a word end a verb's stem, in the i or e column
// (`言い換え`, `受け取り`, `建て替え`); other kana there make another word (`踏ん切り`, `付きっ切り`)
// or a phrase (`気に入る`, `年の暮れ`)
const STEM_ENDINGS = new Set('イキギシジチヂヒビピミリヰエケゲセゼテデネベペメレヱ')

/**
 * Whether the site's spelling is the query word with okurigana before a kanji left out
 * (`言換え` for `言い換え`), ending in the same kana: one word whatever the site's reading says.
 * why: the dictionary reads a word it does not know with the site's okurigana as kanji read alone
 * (`言換え` as ゲン + カエ), so the reading cannot join it to its other spelling; the query writes
 * every kana the site writes, on the same kanji, and more
 */
function siteLeavesKanaOut(ours: readonly string[], theirs: readonly string[]): boolean {
  const last = ours.length - 1
  if (ours[last] === '' || ours[last] !== theirs[last]) return false
  return ours.every(
    (group, g) =>
      group.endsWith(theirs[g]!) &&
      (theirs[g] !== '' || group === '' || STEM_ENDINGS.has(group.at(-1)!)),
  )
}

// why: a verb's kana change along one row of the kana table (`立つ`, `立ち上げ`)
const KANA_ROWS = [
  'アイウエオ',
  'カキクケコ',
  'ガギグゲゴ',
  'サシスセソ',
  'ザジズゼゾ',
  'タチツテトッ',
  'ダヂヅデド',
  'ナニヌネノ',
  'ハヒフヘホ',
  'バビブベボ',
  'パピプペポ',
  'マミムメモ',
  'ラリルレロ',
  'ワヰヱヲ',
]

/**
 * Whether kanji each read as one kana or more, with `groups` of kana after each, read `reading`.
 * Where the site writes a kanji without the kana the query gives it (`theirs` empty), the
 * dictionary read the kanji alone, as a verb's plain form (`立上げ` as タツアゲ): the query's last
 * kana there may be another of its row (`立ち上げ`).
 */
function readAs(
  skeleton: string,
  groups: readonly string[],
  theirs: readonly string[],
  reading: string,
): boolean {
  let pattern = '^'
  for (let k = 0; k < skeleton.length; k++) {
    const group = groups[k]!
    const row =
      theirs[k] === '' && group !== ''
        ? KANA_ROWS.find((r) => r.includes(group.at(-1)!))
        : undefined
    pattern += row ? `.+${group.slice(0, -1)}[${row}]` : `.+${group}`
  }
  return new RegExp(`${pattern}$`, 'u').test(reading)
}
