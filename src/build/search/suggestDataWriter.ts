import { spellingKey } from '../../lib/search/query/searchAlternatives.js'
import type { SuggestData, SuggestionKind } from '../../lib/search/suggest/suggestData.js'

/** What the completions are made of. */
export interface SuggestSourcePage {
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
 * later words (`Kalita ウェーブ…` is also found from `ウェ`), each tag once.
 */
export function suggestDataOf(
  pages: readonly SuggestSourcePage[],
  dataId: string,
  productType: string,
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
  for (const page of pages) {
    const weight = page.contentType === productType ? PRODUCT_TITLE_WEIGHT : TITLE_WEIGHT
    const words = page.title.split(/\s+/).filter(Boolean)
    for (let i = 0; i < words.length; i++) {
      add(spellingKey(words.slice(i).join(' ')), page.title, 'title', page.slug, weight)
    }
    for (const tag of new Set(page.tags)) tagPages.set(tag, (tagPages.get(tag) ?? 0) + 1)
  }
  for (const [tag, count] of tagPages) add(spellingKey(tag), tag, 'tag', null, count)
  const sorted = [...entries.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return {
    dataId,
    keys: sorted.map((entry) => entry[0]),
    texts: sorted.map((entry) => entry[1]),
    kinds: sorted.map((entry) => entry[2]),
    slugs: sorted.map((entry) => entry[3]),
    weights: sorted.map((entry) => entry[4]),
  }
}
