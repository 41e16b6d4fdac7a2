import { isCjkTerm, textRuns } from '../terms/cjkTokenizer.js'
import { foldJapaneseRun } from '../terms/kanaFolding.js'
import { normalizeSearchText } from '../textNormalization.js'
import type { StoredPage } from '../siteContentTypes.js'
import { findFirstMatch } from './firstMatch.js'
import { plainness, UNREAD, type PageReading } from './pageTexts.js'
import type { TextCaches } from './textCaches.js'

/*
 * A query word of four or more Japanese characters is matched by its bigrams (AND), which a
 * page may hold apart; such a page is no match (docs/search.md, "Decision: spelling variants").
 * The service drops the pages holding none of the word's spellings as a whole (siteSearch.ts).
 */

/** How many more hits are asked for when some were dropped (see holdsAdjacent). */
export const ADJACENCY_MARGIN = 2
// why: a word of two characters is one bigram, always adjacent; the two bigrams of a
// three-character word rarely occur apart, and checking them (珈琲豆 is on most pages of the
// bench) added much to the full answer's time
const MIN_CHECKED_LENGTH = 4

/**
 * A query word's spellings (the word, then its alternatives) as the folded Japanese runs a page
 * must hold as they are, or null when the word needs no check: some spelling is Latin, or has
 * no run longer than one bigram (a Latin word matched as it is listed; fuzzy ones cannot be
 * found in the text).
 */
export function adjacentRuns(spellings: readonly string[]): string[][] | null {
  const all: string[][] = []
  for (const spelling of spellings) {
    const normalized = normalizeSearchText(spelling)
    const runs = textRuns(normalized)
    if (runs.some((run) => !isCjkTerm(run))) return null
    const long = runs.map(foldJapaneseRun).filter((run) => run.length >= MIN_CHECKED_LENGTH)
    if (long.length === 0) return null
    all.push(long)
  }
  return all
}

/**
 * Whether the page holds, for some query word, every run of one of its spellings as it is (its
 * bigrams next to each other, not only somewhere on the page); words needing no check count.
 * why: `ポインティング` let in many pages holding its bigrams apart, and ranked the right one low
 */
export function holdsAdjacent(
  reading: PageReading,
  page: StoredPage | null,
  adjacency: readonly (string[][] | null)[],
  textMayHold: boolean,
): boolean {
  if (!page || adjacency.some((runs) => runs === null)) return true
  // why: loops, not callbacks over a list of the fields made per hit: this runs for every hit of
  // a query with a long Japanese word (and its second index search)
  for (const spellings of adjacency) {
    for (const runs of spellings!) {
      let all = true
      for (const run of runs) {
        if (
          !fieldsHold(reading.caches, page, run) &&
          !(textMayHold && textHolds(reading, page, run))
        ) {
          all = false
          break
        }
      }
      if (all) return true
    }
  }
  return false
}

/** Whether the page's title, description or a tag holds `run` (a Japanese run: no spaces). */
function fieldsHold(caches: TextCaches, page: StoredPage, run: string): boolean {
  const terms = [run]
  if (findFirstMatch(caches, page.title, terms) !== null) return true
  if (findFirstMatch(caches, page.description, terms) !== null) return true
  for (const tag of page.tags) if (findFirstMatch(caches, tag, terms) !== null) return true
  return false
}

/** Whether the page's text holds `run`: in its head when that decides, else in the whole. */
function textHolds(
  { caches, heads, wholeText, knownIn }: PageReading,
  page: StoredPage,
  run: string,
): boolean {
  const plain = plainness(page)
  const whole = page.textShard === undefined
  const spellings = page.textSpellings
  if (whole || heads) {
    const inHead = findFirstMatch(
      caches,
      page.text,
      [run],
      plain,
      whole ? knownIn(page, true) : undefined,
      spellings,
    )
    if (whole) return inHead !== null
    // why: a match this far from the head's end is one in the whole text (excerpt.ts's margin)
    if (inHead !== null && inHead + 4 * run.length + 8 <= page.text.length) return true
  }
  const text = wholeText(page)
  // why: a text that cannot be read is not held against the page (the index matched it)
  if (text === UNREAD) return true
  return text !== null && findFirstMatch(caches, text, [run], plain, undefined, spellings) !== null
}
