import { NotFoundError } from '../errors.js'
import { PRODUCT_NOT_FOUND_MESSAGE } from '../forms/customerForm.js'
import {
  findProduct,
  settingsFor,
  type CatalogueProduct,
  type CatalogueVariant,
} from '../productCatalogue.js'
import type { Services } from '../services.js'
import { windowState } from './preorderRules.js'
import { productUnits } from './productUnits.js'

/** The pre-order state of a product without variants, or of one variant. */
export interface AvailabilityState {
  /** Whether a reservation of one unit would be taken now (window open and a unit left). */
  reservable: boolean
  /** Units left under the cap; null when there is none. */
  remaining: number | null
  opensAt: string | null
  closesAt: string | null
  releaseDate: string | null
}

/** One variant's line of the answer. */
export interface VariantAvailability extends AvailabilityState {
  /** The variant's id (what `variant` of the forms takes). */
  variant: string
  /** Its name, shown to people. */
  name: string
  /** Units in stock (POST /api/admin/stock, the webhook, the feed); null while none is known. */
  stock: number | null
}

/** GET /api/products/{slug}/availability, without the `success` wrapper. */
export interface ProductAvailability extends AvailabilityState {
  productSlug: string
  /**
   * A product with variants: each variant's state, in catalogue order (the fields above then
   * sum them up: reservable when one variant is, `remaining` the sum when every variant has a
   * cap). Absent for a product without variants.
   */
  variants?: VariantAvailability[]
}

/** How long browsers and the CDN may keep an availability answer, in seconds. */
export const AVAILABILITY_MAX_AGE_S = 30

/**
 * A product's pre-order state for the storefront: the window at `now` and the units left
 * (read from the product's ledger; for a product with variants each variant's ledger and stock
 * record; no write). 404 for a product not in the
 * catalogue.
 */
export async function productAvailability(
  slug: string,
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<ProductAvailability> {
  const product = findProduct(slug)
  if (!product) throw new NotFoundError(PRODUCT_NOT_FOUND_MESSAGE)
  const now = services.now()
  if (!product.variants) {
    const units = productUnits({ product, variant: null }, services)
    const remaining = units ? await units.remaining() : null
    return { productSlug: product.slug, ...availabilityOf(product, remaining, now) }
  }
  const variants = await Promise.all(
    product.variants.map(async (variant) => variantAvailability(product, variant, services, now)),
  )
  const capped = variants.every((line) => line.remaining !== null)
  return {
    productSlug: product.slug,
    ...availabilityOf(product, null, now),
    reservable: variants.some((line) => line.reservable),
    remaining: capped ? variants.reduce((sum, line) => sum + (line.remaining ?? 0), 0) : null,
    variants,
  }
}

async function variantAvailability(
  product: CatalogueProduct,
  variant: CatalogueVariant,
  services: Pick<Services, 'repositories' | 'now'>,
  now: number,
): Promise<VariantAvailability> {
  const units = productUnits({ product, variant }, services)
  const [remaining, stock] = await Promise.all([
    units ? units.remaining() : null,
    services.repositories.stock.get({ productSlug: product.slug, variant: variant.id }),
  ])
  return {
    variant: variant.id,
    name: variant.name,
    ...availabilityOf(settingsFor(product, variant), remaining, now),
    stock: stock?.quantity ?? null,
  }
}

/** The state of a product (or a variant's settings) whose remaining units are known. */
export function availabilityOf(
  settings: CatalogueProduct,
  remaining: number | null,
  now: number,
): AvailabilityState {
  return {
    reservable: windowState(settings, now) === 'open' && (remaining === null || remaining > 0),
    remaining,
    opensAt: settings.reservationOpensAt ?? null,
    closesAt: settings.reservationClosesAt ?? null,
    releaseDate: settings.releaseDate ?? null,
  }
}
