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

/** The product's public URL (D1): `${siteUrl}/products/<slug>`. */
export function productUrl(slug: string, siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/products/${slug}`
}

const bySku = new Map(
  productCatalogue.flatMap((product) => (product.sku ? [[product.sku, product] as const] : [])),
)

/** The product whose front matter names this `sku:`, or null. */
export function findProductBySku(sku: string): CatalogueProduct | null {
  return bySku.get(sku) ?? null
}
