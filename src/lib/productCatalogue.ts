import { productCatalogue } from '../generated/siteContent.js'
import type { CatalogueProduct } from './catalogueProduct.js'

export type { CatalogueProduct } from './catalogueProduct.js'

const bySlug = new Map(productCatalogue.map((product) => [product.slug, product]))

/** The product with this slug, or null when the catalogue has none (D1 "product exists"). */
export function findProduct(slug: string): CatalogueProduct | null {
  return bySlug.get(slug) ?? null
}

/** Every product of the catalogue, sorted by slug. */
export function listProducts(): readonly CatalogueProduct[] {
  return productCatalogue
}

/**
 * The product's page on the shop's storefront (D1, `STOREFRONT_URL`): its front matter `url`
 * when it has one (an absolute address as it is, a path on `storefrontUrl`), else
 * `${storefrontUrl}/products/<slug>`.
 */
export function productUrl(slug: string, storefrontUrl: string): string {
  const base = storefrontUrl.replace(/\/+$/, '')
  const own = bySlug.get(slug)?.url
  if (own) return /^https?:\/\//i.test(own) ? own : `${base}${own}`
  return `${base}/products/${slug}`
}

const bySku = new Map(
  productCatalogue.flatMap((product) => (product.sku ? [[product.sku, product] as const] : [])),
)

/** The product whose front matter names this `sku:`, or null. */
export function findProductBySku(sku: string): CatalogueProduct | null {
  return bySku.get(sku) ?? null
}

/** A line of a stock feed or an order: a product named by its slug or by its `sku:`. */
export interface ProductLine {
  productSlug?: string
  sku?: string
}

/**
 * The product a line names (its `productSlug`, else its `sku`), or null: the one place a line of
 * the stock webhook, the stock feed or the order webhook is resolved to the catalogue.
 */
export function productOfLine(line: ProductLine): CatalogueProduct | null {
  return line.productSlug ? findProduct(line.productSlug) : findProductBySku(line.sku ?? '')
}
