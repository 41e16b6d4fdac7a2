import { productCatalogue } from '../generated/siteContent.js'
import type {
  CatalogueProduct,
  CatalogueVariant,
  PreorderSettings,
  ProductTarget,
} from './catalogueProduct.js'

export type { CatalogueProduct, CatalogueVariant, ProductTarget } from './catalogueProduct.js'

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

/** The address of a product's picture (`image:`, absolute or on `storefrontUrl`), or null. */
export function productImageUrl(slug: string, storefrontUrl: string): string | null {
  const image = bySlug.get(slug)?.image
  if (!image) return null
  return /^https?:\/\//i.test(image) ? image : `${storefrontUrl.replace(/\/+$/, '')}${image}`
}

/** The variant `id` of `product`, or null (always null for a product without variants). */
export function findVariant(product: CatalogueProduct, id: string): CatalogueVariant | null {
  return product.variants?.find((variant) => variant.id === id) ?? null
}

/** A product of the catalogue and, for a product with variants, one of its variants. */
export interface CatalogueTarget {
  product: CatalogueProduct
  /** Null for a product without variants, or for a whole product with variants. */
  variant: CatalogueVariant | null
}

/**
 * The product and variant `target` names, or null when the catalogue has no such product, or
 * the product no such variant. A target without a variant names the whole product.
 */
export function findTarget({ productSlug, variant }: ProductTarget): CatalogueTarget | null {
  const product = findProduct(productSlug)
  if (!product) return null
  if (variant === undefined) return { product, variant: null }
  const found = findVariant(product, variant)
  return found ? { product, variant: found } : null
}

/**
 * The catalogue's product and variant of a stored record (`{productSlug, variant?}`); null when
 * the product is gone from the catalogue. A variant the catalogue no longer lists is null.
 */
export function targetOfRecord(record: ProductTarget): CatalogueTarget | null {
  const product = findProduct(record.productSlug)
  if (!product) return null
  const variant = record.variant === undefined ? null : findVariant(product, record.variant)
  return { product, variant }
}

/**
 * The product as the messages about one variant show it: the variant's pre-order settings
 * (`settingsFor`) and a title naming the variant (`targetTitle`); the product itself when no
 * variant is named.
 */
export function asShown({ product, variant }: CatalogueTarget): CatalogueProduct {
  if (!variant) return product
  return {
    ...settingsFor(product, variant),
    title: targetTitle({ productSlug: product.slug, variant: variant.id }),
  }
}

/** `asShown` of a stored record's product and variant; null when the product is gone. */
export function shownProductOf(record: ProductTarget): CatalogueProduct | null {
  const target = targetOfRecord(record)
  return target && asShown(target)
}

/** What a stock-keeping code names: a product without variants, or one variant of a product. */
export interface SkuOwner {
  product: CatalogueProduct
  variant: CatalogueVariant | null
}

const bySku = new Map<string, SkuOwner>(
  productCatalogue.flatMap((product) => [
    ...(product.sku ? [[product.sku, { product, variant: null }] as const] : []),
    ...(product.variants ?? []).flatMap((variant) =>
      variant.sku ? [[variant.sku, { product, variant }] as const] : [],
    ),
  ]),
)

/** The product, or the variant of a product, whose front matter names this `sku:`, or null. */
export function findSku(sku: string): SkuOwner | null {
  return bySku.get(sku) ?? null
}

const PREORDER_FIELDS = [
  'reservationLimit',
  'maxPerReservation',
  'reservationOpensAt',
  'reservationClosesAt',
  'releaseDate',
] as const satisfies readonly (keyof PreorderSettings)[]

/**
 * The pre-order settings that apply to `variant` of `product`: each one the variant sets, else
 * the product's (the product itself when no variant is named).
 */
export function settingsFor(
  product: CatalogueProduct,
  variant: CatalogueVariant | null,
): CatalogueProduct {
  if (!variant) return product
  const settings: CatalogueProduct = { ...product }
  for (const field of PREORDER_FIELDS) {
    if (variant[field] !== undefined) Object.assign(settings, { [field]: variant[field] })
  }
  return settings
}

/**
 * What people are shown for a product or one of its variants: the catalogue title (else the
 * slug), followed by the variant's name in full-width brackets: 「美濃焼 マグカップ（藍）」.
 */
export function targetTitle({ productSlug, variant }: ProductTarget): string {
  const product = bySlug.get(productSlug)
  const title = product?.title ?? productSlug
  if (variant === undefined) return title
  const name = (product && findVariant(product, variant)?.name) ?? variant
  return `${title}（${name}）`
}

/**
 * A product or variant as one text, for maps and for the record id the audit trail shows: the
 * slug, or `slug/variantId` (neither may hold `/`).
 */
export function targetKey({ productSlug, variant }: ProductTarget): string {
  return variant === undefined ? productSlug : `${productSlug}/${variant}`
}
