import { z } from '../../generated/zod.js'
import { NotFoundError } from '../errors.js'
import { asShown, listProducts, type CatalogueTarget } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'
import type { Reservation } from '../storage/records.js'
import type { PreorderSettings } from '../catalogueProduct.js'
import { maxPerReservation, windowState, type WindowState } from './preorderRules.js'
import { productUnits } from './productUnits.js'

/** One product's (or one variant's) pre-order settings and units, for staff. */
export interface PreorderProductRow {
  productSlug: string
  /** The variant's id, on the rows of a product with variants (one row per variant). */
  variant?: string
  /** The product's title; a variant's row names the variant: 「美濃焼 マグカップ（藍）」. */
  title: string
  reservationLimit: number | null
  /** Units held by reservations that are not cancelled (null without a cap). */
  heldUnits: number | null
  remaining: number | null
  maxPerReservation: number
  opensAt: string | null
  closesAt: string | null
  releaseDate: string | null
  window: WindowState
}

/**
 * POST /api/admin/reservations/products: every product that has pre-order settings (a cap, a
 * window or a release date; a product with variants: one row per variant, when the product or
 * any variant has some), with the units left; one ledger read per capped product or variant.
 */
export async function preorderOverview(
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<PreorderProductRow[]> {
  const targets = listProducts()
    .filter((product) => [product, ...(product.variants ?? [])].some(hasPreorderSettings))
    .flatMap((product): CatalogueTarget[] =>
      product.variants
        ? product.variants.map((variant) => ({ product, variant }))
        : [{ product, variant: null }],
    )
  return Promise.all(
    targets.map(async (target): Promise<PreorderProductRow> => {
      const settings = asShown(target)
      const units = productUnits(target, services)
      const remaining = units ? await units.remaining() : null
      return {
        productSlug: settings.slug,
        ...(target.variant ? { variant: target.variant.id } : {}),
        title: settings.title,
        reservationLimit: units?.limit ?? null,
        heldUnits: units && remaining !== null ? units.limit - remaining : null,
        remaining,
        maxPerReservation: maxPerReservation(settings),
        opensAt: settings.reservationOpensAt ?? null,
        closesAt: settings.reservationClosesAt ?? null,
        releaseDate: settings.releaseDate ?? null,
        window: windowState(settings, services.now()),
      }
    }),
  )
}

function hasPreorderSettings(settings: PreorderSettings): boolean {
  return (
    settings.reservationLimit !== undefined ||
    settings.reservationOpensAt !== undefined ||
    settings.reservationClosesAt !== undefined ||
    settings.releaseDate !== undefined
  )
}

/** Body of POST /api/admin/reservations/find. */
export const findReservationSchema = z.object({
  id: z
    .string({ error: 'id is required' })
    .trim()
    .min(1, { error: 'id is required' })
    .refine(isUsableRecordId, { error: UNUSABLE_ID_MESSAGE }),
})

/**
 * POST /api/admin/reservations/find: the reservation with this id (the number the customer
 * quotes), active or archived, whatever its product; 404 when there is none.
 */
export async function findReservation(
  id: string,
  services: Pick<Services, 'repositories'>,
): Promise<Reservation> {
  const { records } = await services.repositories.reservations.list()
  const found = records.find((record) => record.id === id)
  if (!found) throw new NotFoundError('Reservation not found')
  return found
}
