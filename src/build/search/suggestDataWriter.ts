import { spellingKey } from '../../lib/search/query/searchAlternatives.js'
import type { SuggestData, SuggestionKind } from '../../lib/search/suggest/suggestData.js'
import { readingKey } from '../../lib/search/terms/readingKey.js'
import type { PageReadings } from './wordReadings.js'

/** What the completions are made of. */
export interface SuggestSourcePage {
  id: string
  slug: string
  title: string
  tags: string[]
  contentType: string
}

// why: a product title is what a shopper most likely types towards; a tag weighs the number of
// pages it is on
const PRODUCT_TITLE_WEIGHT = 3
const TITLE_WEIGHT = 2

/**
 * The completions of `pages`: each title under its spelling key and under the key of each of its
 * later words (`Kalita ウェーブ…` is also found from `ウェ`), each tag once; and by reading
 * (`readings`, by page id): each title and tag under the reading key of each kanji word it holds
 * (`きゅ` → `急須`, `Tokoname 朱泥急須 …`).
 */
export function suggestDataOf(
  pages: readonly SuggestSourcePage[],
  dataId: string,
  productType: string,
  readings: ReadonlyMap<string, PageReadings> = new Map(),
): SuggestData {
  const entries = new Map<string, [string, string, SuggestionKind, string | null, number]>()
  const add = (
    key: string,
    text: string,
    kind: SuggestionKind,
    slug: string | null,
    weight: number,
  ): void => {
    if (!key) return
    const id = `${key}\u0000${text}\u0000${kind}`
    const known = entries.get(id)
    if (known) known[4] = Math.max(known[4], weight)
    else entries.set(id, [key, text, kind, slug, weight])
  }
  const tagPages = new Map<string, number>()
  const readingKeys = new Map<string, Set<string>>()
  const addReadings = (
    text: string,
    kind: SuggestionKind,
    found: readonly { reading: string }[],
  ) => {
    const id = `${text}\u0000${kind}`
    const keys = readingKeys.get(id) ?? new Set()
    for (const { reading } of found) keys.add(readingKey(reading))
    readingKeys.set(id, keys)
  }
  for (const page of pages) {
    const read = readings.get(page.id)
    if (read) {
      addReadings(page.title, 'title', read.title)
      page.tags.forEach((tag, t) => addReadings(tag, 'tag', read.tags[t] ?? []))
    }
    const weight = page.contentType === productType ? PRODUCT_TITLE_WEIGHT : TITLE_WEIGHT
    const words = page.title.split(/\s+/).filter(Boolean)
    for (let i = 0; i < words.length; i++) {
      add(spellingKey(words.slice(i).join(' ')), page.title, 'title', page.slug, weight)
    }
    for (const tag of new Set(page.tags)) tagPages.set(tag, (tagPages.get(tag) ?? 0) + 1)
  }
  for (const [tag, count] of tagPages) add(spellingKey(tag), tag, 'tag', null, count)
  const sorted = [...entries.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const entryOf = new Map<string, number>()
  sorted.forEach(([, text, kind], n) => {
    const id = `${text}\u0000${kind}`
    if (!entryOf.has(id)) entryOf.set(id, n)
  })
  const byReading: [string, number][] = []
  for (const [id, keys] of readingKeys) {
    const n = entryOf.get(id)
    if (n === undefined) continue
    for (const key of keys) if (key) byReading.push([key, n])
  }
  byReading.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))
  return {
    dataId,
    keys: sorted.map((entry) => entry[0]),
    texts: sorted.map((entry) => entry[1]),
    kinds: sorted.map((entry) => entry[2]),
    slugs: sorted.map((entry) => entry[3]),
    weights: sorted.map((entry) => entry[4]),
    readingKeys: byReading.map(([key]) => key),
    readingEntries: byReading.map(([, n]) => n),
  }
}
