import { NotFoundError } from '../errors.js'
import { PRODUCT_NOT_FOUND_MESSAGE } from '../forms/customerForm.js'
import { findProduct, type CatalogueProduct } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { windowState } from './preorderRules.js'
import { productUnits } from './productUnits.js'

/** GET /api/products/{slug}/availability, without the `success` wrapper. */
export interface ProductAvailability {
  productSlug: string
  /** Whether a reservation of one unit would be taken now (window open and a unit left). */
  reservable: boolean
  /** Units left under the cap; null when the product has none. */
  remaining: number | null
  opensAt: string | null
  closesAt: string | null
  releaseDate: string | null
}

/** How long browsers and the CDN may keep an availability answer, in seconds. */
export const AVAILABILITY_MAX_AGE_S = 30

/**
 * A product's pre-order state for the storefront: the window at `now` and the units left
 * (read from the product's ledger; no write). 404 for a product not in the catalogue.
 */
export async function productAvailability(
  slug: string,
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<ProductAvailability> {
  const product = findProduct(slug)
  if (!product) throw new NotFoundError(PRODUCT_NOT_FOUND_MESSAGE)
  const units = productUnits(product, services)
  const remaining = units ? await units.remaining() : null
  return availabilityOf(product, remaining, services.now())
}

/** The answer for a product whose remaining units are known. */
export function availabilityOf(
  product: CatalogueProduct,
  remaining: number | null,
  now: number,
): ProductAvailability {
  return {
    productSlug: product.slug,
    reservable: windowState(product, now) === 'open' && (remaining === null || remaining > 0),
    remaining,
    opensAt: product.reservationOpensAt ?? null,
    closesAt: product.reservationClosesAt ?? null,
    releaseDate: product.releaseDate ?? null,
  }
}
