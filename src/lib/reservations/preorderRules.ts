import { fieldError, quantityMessage } from '../forms/customerForm.js'
import { NotAvailableError, TryAgainLaterError } from '../errors.js'
import type { CatalogueProduct } from '../productCatalogue.js'

/**
 * A product's pre-order rules (front matter, docs/api.md "Product data"): the cap, the most
 * units per reservation and the window. Every check takes the time as a parameter.
 */

/** `maxPerReservation` when the product does not set it. */
export const DEFAULT_MAX_PER_RESERVATION = 5

export const LIMIT_REACHED_MESSAGE = 'この商品の予約は上限数に達しました。'
export const OUTSIDE_WINDOW_MESSAGE = '予約受付期間外です。'

/** 409: the reservation would take more units than are left (`remaining`, 0 or more). */
export class ReservationLimitReachedError extends NotAvailableError {
  override name = 'ReservationLimitReachedError'
  constructor(readonly remaining: number) {
    super(LIMIT_REACHED_MESSAGE, { remaining })
  }
}

/** 409: outside the window; before it opens the answer carries `opensAt`. */
export class OutsideReservationWindowError extends NotAvailableError {
  override name = 'OutsideReservationWindowError'
  constructor(window: { opensAt: string | null; closesAt: string | null; state: WindowState }) {
    super(
      OUTSIDE_WINDOW_MESSAGE,
      window.state === 'not-yet' ? { opensAt: window.opensAt } : { closesAt: window.closesAt },
    )
  }
}

/** 503: the product's ledger kept changing under every attempt (a rush beyond what it absorbs). */
export class ReservationsBusyError extends TryAgainLaterError {
  override name = 'ReservationsBusyError'
  constructor() {
    super(BUSY_MESSAGE)
  }
}

export const BUSY_MESSAGE = 'ただいまご予約が集中しています。しばらくしてから再度お試しください。'

export function maxPerReservation(product: CatalogueProduct): number {
  return product.maxPerReservation ?? DEFAULT_MAX_PER_RESERVATION
}

/** The product's cap in units, or null when it has none. */
export function reservationLimit(product: CatalogueProduct): number | null {
  return product.reservationLimit ?? null
}

export type WindowState = 'not-yet' | 'open' | 'closed'

/** Where `now` (ms) lies in the product's window (open from `opensAt`, closed from `closesAt`). */
export function windowState(product: CatalogueProduct, now: number): WindowState {
  const time = now
  if (product.reservationOpensAt && time < Date.parse(product.reservationOpensAt)) return 'not-yet'
  if (product.reservationClosesAt && time >= Date.parse(product.reservationClosesAt)) {
    return 'closed'
  }
  return 'open'
}

/** Checks what needs no stored data: the quantity (400, §4.10 shape), then the window (409). */
export function checkReservable(product: CatalogueProduct, quantity: number, now: number): void {
  const max = maxPerReservation(product)
  if (quantity > max) throw fieldError('quantity', quantityMessage(max))
  const state = windowState(product, now)
  if (state !== 'open') {
    throw new OutsideReservationWindowError({
      opensAt: product.reservationOpensAt ?? null,
      closesAt: product.reservationClosesAt ?? null,
      state,
    })
  }
}
