/**
 * What the catalogue knows of a product (D1), from the front matter of its page under
 * `content/products/`: written by the content build into the generated catalogue and read by
 * `productCatalogue.ts`.
 */

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

/**
 * One variant of a product (a glaze, a size, a pattern), from the product's front matter
 * `variants:` list. Its pre-order settings, where set, replace the product's for this variant.
 */
export interface CatalogueVariant extends PreorderSettings {
  /** Lower-case letters, digits and single hyphens, unique in the product (`ai`, `size-m`). */
  id: string
  /** What people are shown (`藍`, `M`). */
  name: string
  /** Stock-keeping code of this variant, unique across the catalogue. */
  sku?: string
}

/**
 * What a restock notice, a wave, a stock record or a unit ledger is about: a whole product, or
 * one variant of a product with variants (`variant` is the variant's id; absent for the whole
 * product and for a product without variants).
 */
export interface ProductTarget {
  productSlug: string
  variant?: string
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
  /**
   * The product's picture (`image:` in the front matter): absolute, or a path on
   * `STOREFRONT_URL`. Shown in a LINE restock message. Absent: none.
   */
  image?: string
  /**
   * The product's variants in the order the front matter lists them; absent for a product
   * without variants. A product with variants has its SKUs on its variants.
   */
  variants?: CatalogueVariant[]
}
