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
}

/** A product of the catalogue (D1). */
export interface CatalogueProduct {
  slug: string
  title: string
  /** URL path `/products/<slug>`. */
  path: string
  /** Stock-keeping code (`sku:` in the front matter), used by stock webhooks and feeds. */
  sku?: string
}
