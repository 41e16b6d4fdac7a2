/** A page's result fields (§2.5), kept beside the index in the search data file. */
export interface StoredPage {
  /** `<contentType>/<fileSlug>` (D11). */
  id: string
  /** URL path `/<contentType>/<fileSlug>` (D11). */
  slug: string
  title: string
  description: string
  tags: string[]
  createdAt: string
  /** Plain text of the markdown body, for excerpts. */
  text: string
  /**
   * Whether `text` is plain (`isPlainText`): set by the search data writer, so that excerpts
   * need not normalise it.
   */
  textIsPlain?: boolean
  /**
   * For a text that is not plain, its characters that are not plain (`notPlainKeys`), when few:
   * set by the search data writer, so that excerpts need not look for them in the text.
   */
  textNotPlain?: string
  /**
   * For a long text, the pairs of Japanese characters it writes in more than one way
   * (`mixedSpellingPairs`), when few: set by the search data writer, so that excerpts find a
   * Japanese term none of whose pairs is listed by `indexOf` of one spelling.
   */
  textSpellings?: string
  /**
   * In the data file, the text shard (index/searchText.ts) holding the text past `text`, which is
   * then only the text's head; absent when `text` is whole.
   */
  textShard?: number
}

export type { CatalogueProduct, PreorderSettings } from '../catalogueProduct.js'
