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

/** A product's pre-order settings from its front matter; a field not set is absent. */
export interface PreorderSettings {
  /** 予約上限数: units all reservations not cancelled may hold together. Absent: no cap. */
  reservationLimit?: number
  /** Most units one reservation may take. Absent: 5. */
  maxPerReservation?: number
  /** ISO 8601 time reservations open. Absent: open from the start. */
  reservationOpensAt?: string
  /** ISO 8601 time reservations close. Absent: never closes. */
  reservationClosesAt?: string
  /** 発売予定日 (`2027-01-20` or an ISO time), shown in e-mails and the widget. */
  releaseDate?: string
}

/** A product of the catalogue (D1). */
export interface CatalogueProduct extends PreorderSettings {
  slug: string
  title: string
  /** URL path `/products/<slug>`. */
  path: string
  /** Stock-keeping code (`sku:` in the front matter), used by stock webhooks and feeds. */
  sku?: string
  /**
   * The product page's address on the storefront (`url:` in the front matter): absolute
   * (`https://…`) or a path (`/items/123`) on `STOREFRONT_URL`. Absent: `/products/<slug>`.
   */
  url?: string
}
