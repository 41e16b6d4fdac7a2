import { z } from '../../generated/zod.js'
import { NotFoundError } from '../errors.js'
import { listProducts } from '../productCatalogue.js'
import type { Services } from '../services.js'
import { isUsableRecordId, UNUSABLE_ID_MESSAGE } from '../storage/recordIds.js'
import type { Reservation } from '../storage/records.js'
import { maxPerReservation, windowState, type WindowState } from './preorderRules.js'
import { productUnits } from './productUnits.js'

/** One product's pre-order settings and units, for staff. */
export interface PreorderProductRow {
  productSlug: string
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
 * window or a release date), with the units left; one ledger read per capped product.
 */
export async function preorderOverview(
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<PreorderProductRow[]> {
  const products = listProducts().filter(
    (product) =>
      product.reservationLimit !== undefined ||
      product.reservationOpensAt !== undefined ||
      product.reservationClosesAt !== undefined ||
      product.releaseDate !== undefined,
  )
  return Promise.all(
    products.map(async (product): Promise<PreorderProductRow> => {
      const units = productUnits(product, services)
      const remaining = units ? await units.remaining() : null
      return {
        productSlug: product.slug,
        title: product.title,
        reservationLimit: units?.limit ?? null,
        heldUnits: units && remaining !== null ? units.limit - remaining : null,
        remaining,
        maxPerReservation: maxPerReservation(product),
        opensAt: product.reservationOpensAt ?? null,
        closesAt: product.reservationClosesAt ?? null,
        releaseDate: product.releaseDate ?? null,
        window: windowState(product, services.now()),
      }
    }),
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
