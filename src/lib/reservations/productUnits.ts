import {
  findProduct,
  settingsFor,
  type CatalogueProduct,
  type CatalogueTarget,
} from '../productCatalogue.js'
import type { Services } from '../services.js'
import type { ProductRecordRef, Reservation } from '../storage/records.js'
import type { Repositories, ReservationRepository } from '../storage/repositories.js'
import {
  heldUnits,
  UnitLedgerBusyError,
  type UnitLedger,
  type UnitLedgerStore,
} from '../storage/reservationUnits.js'
import {
  ReservationLimitReachedError,
  ReservationsBusyError,
  reservationLimit,
} from './preorderRules.js'

/** Units a reservation holds: its `quantity` (1 for records stored before quantities). */
export function unitsOf(reservation: Pick<Reservation, 'quantity'>): number {
  return reservation.quantity ?? 1
}

/** Whether a reservation in this status holds units: every status but `cancelled`. */
export function holdsUnits(status: string): boolean {
  return status !== 'cancelled'
}

/** What counting units needs: the records store and the clock. */
export interface UnitsDeps {
  repositories: Pick<Repositories, 'reservations' | 'unitLedger'>
  now: () => number
}

/**
 * The units of one capped product, or of one capped variant of a product with variants (each
 * variant counts on its own ledger; a product or variant without `reservationLimit` has none to
 * count). The ledger is built from the stored reservations the first time it is needed.
 */
export class ProductUnits {
  readonly limit: number
  readonly #ledger: UnitLedgerStore
  readonly #reservations: ReservationRepository
  readonly #productSlug: string
  readonly #variant: string | undefined

  constructor(limit: number, productSlug: string, deps: UnitsDeps, variant?: string) {
    this.limit = limit
    this.#productSlug = productSlug
    this.#variant = variant
    this.#reservations = deps.repositories.reservations
    this.#ledger = deps.repositories.unitLedger(productSlug, {
      ...(variant === undefined ? {} : { variant }),
      now: deps.now,
      initial: () => this.#holdsFromRecords(deps.now()),
    })
  }

  /** Units left (0 or more). */
  async remaining(): Promise<number> {
    return Math.max(0, this.limit - heldUnits(await this.#ledger.read()))
  }

  /** Takes `units` for the reservation, or throws ReservationLimitReachedError. */
  async take(reservationId: string, units: number): Promise<void> {
    let outcome = await this.#busyAsRetry(() => this.#ledger.take(reservationId, units, this.limit))
    if (!outcome.taken) {
      // why: units held by a request that died between its writes are given back, then retried
      const dropped = await this.#ledger.settle((id) => this.#stillHolds(id))
      if (dropped > 0) outcome = await this.#ledger.take(reservationId, units, this.limit)
    }
    if (!outcome.taken) throw new ReservationLimitReachedError(outcome.remaining)
  }

  /**
   * Makes the ledger agree with a reservation as just written: units held unless it is
   * cancelled or gone. Run after every write that may change what a reservation holds, so that
   * of two changes racing on one reservation the ledger follows the one that landed last.
   */
  async follow(reservation: Pick<Reservation, 'id' | 'status' | 'quantity'> | null, id: string) {
    if (!reservation || !holdsUnits(reservation.status)) {
      await this.#ledger.free(id)
      return
    }
    await this.#ledger.take(id, unitsOf(reservation), Number.POSITIVE_INFINITY)
  }

  /** Frees the units of a reservation that is gone or cancelled. */
  async free(reservationId: string): Promise<void> {
    await this.#ledger.free(reservationId)
  }

  async #busyAsRetry<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      if (error instanceof UnitLedgerBusyError) throw new ReservationsBusyError()
      throw error
    }
  }

  async #stillHolds(id: string): Promise<boolean> {
    const record = await this.#reservations.get({ id, productSlug: this.#productSlug })
    return record !== null && record.variant === this.#variant && holdsUnits(record.status)
  }

  async #holdsFromRecords(now: number): Promise<UnitLedger['holds']> {
    const { records } = await this.#reservations.listProduct(this.#productSlug)
    const holds: UnitLedger['holds'] = {}
    for (const record of records) {
      if (record.variant === this.#variant && holdsUnits(record.status)) {
        holds[record.id] = {
          units: unitsOf(record),
          at: new Date(now).toISOString(),
          checked: true,
        }
      }
    }
    return holds
  }
}

/**
 * The units of a product without variants, or of one variant (its own cap, else the product's,
 * counted for the variant alone); null when it has no cap, or for a product with variants named
 * without one (its units are its variants').
 */
export function productUnits(
  { product, variant }: CatalogueTarget,
  deps: UnitsDeps,
): ProductUnits | null {
  if (product.variants && !variant) return null
  const limit = reservationLimit(settingsFor(product, variant))
  if (limit === null) return null
  return new ProductUnits(limit, product.slug, deps, variant?.id)
}

/** The units of every ledger of `product`: its own, or each capped variant's. */
export function everyProductUnits(product: CatalogueProduct, deps: UnitsDeps): ProductUnits[] {
  const targets = product.variants
    ? product.variants.map((variant) => ({ product, variant }))
    : [{ product, variant: null }]
  return targets.flatMap((target) => productUnits(target, deps) ?? [])
}

/**
 * After a reservation was deleted: its units are free again (§3.4 "deleting frees"). The record
 * is gone, so for a product with variants every variant's ledger lets go of its id.
 */
export async function freeUnitsOfRemoved(
  ref: ProductRecordRef,
  services: Pick<Services, 'repositories' | 'now'>,
): Promise<void> {
  const product = findProduct(ref.productSlug)
  if (!product) return
  await Promise.all(everyProductUnits(product, services).map((units) => units.free(ref.id)))
}
