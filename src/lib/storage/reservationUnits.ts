import type { Store } from '@netlify/blobs'
import { ConcurrentChangeError } from '../errors.js'
import { UNIT_LEDGER_PREFIX, unitLedgerKey } from './blobLayout.js'
import { MissingEtagError } from './recordCollection.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * The units a capped product's reservations hold, in one ledger blob per product
 * (`reservation-units/{productSlug}`), or per variant of a product with variants
 * (`reservation-units/{productSlug}~{variantId}`, each variant counted on its own): `{holds: {<reservationId>: {units, at, checked?}}}`.
 * Every change is a compare-and-swap on that blob, so of any number of simultaneous reservations
 * exactly as many win as there are units (docs/architecture.md "The reservation cap"). Entries
 * are keyed by reservation id, so taking or freeing the same reservation twice changes nothing.
 */

/** One reservation's entry. */
export interface UnitHold {
  units: number
  /** ISO time the entry was written. */
  at: string
  /** Set once the entry was checked against its record (see `settleHolds`). */
  checked?: true
}

export interface UnitLedger {
  holds: Record<string, UnitHold>
}

/** Units held in a ledger (the sum over its entries). */
export function heldUnits(ledger: UnitLedger): number {
  let held = 0
  for (const hold of Object.values(ledger.holds)) held += hold.units
  return held
}

/** The ledger changed under every attempt; nothing was written. */
export class UnitLedgerBusyError extends ConcurrentChangeError {
  override name = 'UnitLedgerBusyError'
  constructor(key: string, attempts: number) {
    super(
      key,
      `${key} was changed by other requests during each of ${attempts} attempts; nothing was ` +
        'written. Send the request again.',
    )
  }
}

/** What `take` answers: whether the units are now held, and the units left afterwards. */
export type TakeOutcome = { taken: true; remaining: number } | { taken: false; remaining: number }

export interface UnitLedgerOptions {
  /** The variant whose ledger this is (its id). Default: the product's own ledger. */
  variant?: string
  /** The clock, ms since the epoch. */
  now: () => number
  /** Reads and writes a change may take before it gives up. Default: 60. */
  attempts?: number
  /**
   * Builds the ledger when the product has none yet (a cap set on a product that already has
   * reservations): the holds of its stored reservations that are not cancelled.
   */
  initial: () => Promise<UnitLedger['holds']>
}

/** How old an unchecked entry must be before `settle` asks whether its reservation holds it. */
export const UNCHECKED_HOLD_GRACE_MS = 60_000

type Change = (ledger: UnitLedger) => UnitLedger | null

/** One product's, or one variant's, ledger. */
export class UnitLedgerStore {
  readonly #store: Store
  readonly #key: string
  readonly #options: UnitLedgerOptions

  constructor(store: Store, productSlug: string, options: UnitLedgerOptions) {
    this.#store = store
    if (!isUsableRecordId(productSlug)) throw new Error(`Unusable product slug ${productSlug}`)
    const { variant } = options
    if (variant !== undefined && !isUsableRecordId(variant)) {
      throw new Error(`Unusable variant id ${variant}`)
    }
    this.#key = unitLedgerKey(productSlug, variant)
    this.#options = options
  }

  /** The ledger as stored (built from the records when there is none yet, without writing it). */
  async read(): Promise<UnitLedger> {
    return (await this.#read()).ledger
  }

  /**
   * Holds `units` for `reservationId` when `limit` allows it (its own earlier entry replaced).
   * Refused: nothing written, `remaining` is what is left.
   */
  async take(reservationId: string, units: number, limit: number): Promise<TakeOutcome> {
    let outcome: TakeOutcome = { taken: false, remaining: 0 }
    await this.#change((ledger) => {
      const others = heldUnits(ledger) - (ledger.holds[reservationId]?.units ?? 0)
      if (others + units > limit) {
        outcome = { taken: false, remaining: Math.max(0, limit - heldUnits(ledger)) }
        return null
      }
      outcome = { taken: true, remaining: limit - others - units }
      if (ledger.holds[reservationId]?.units === units) return null
      const at = new Date(this.#options.now()).toISOString()
      return { holds: { ...ledger.holds, [reservationId]: { units, at } } }
    })
    return outcome
  }

  /** Frees `reservationId`'s units; false when it held none. */
  async free(reservationId: string): Promise<boolean> {
    let freed = false
    await this.#change((ledger) => {
      if (!ledger.holds[reservationId]) return null
      freed = true
      const holds = { ...ledger.holds }
      delete holds[reservationId]
      return { holds }
    })
    return freed
  }

  /**
   * Checks unchecked entries older than UNCHECKED_HOLD_GRACE_MS against their records: an entry
   * whose reservation was never stored (its request died between the two writes) or is cancelled
   * (its request died after cancelling) is dropped; the others are marked checked. Each entry is
   * checked once, so a full product costs a few reads, not one per entry and request.
   */
  async settle(stillHolds: (reservationId: string) => Promise<boolean>): Promise<number> {
    const ledger = await this.read()
    const cutoff = this.#options.now() - UNCHECKED_HOLD_GRACE_MS
    const due = Object.entries(ledger.holds)
      .filter(([, hold]) => !hold.checked && Date.parse(hold.at) < cutoff)
      .map(([id]) => id)
    if (due.length === 0) return 0
    const verdicts = new Map<string, boolean>()
    for (const id of due) verdicts.set(id, await stillHolds(id))
    let dropped = 0
    await this.#change((current) => {
      dropped = 0
      const holds = { ...current.holds }
      for (const [id, keep] of verdicts) {
        const hold = holds[id]
        if (!hold || hold.checked) continue
        if (keep) holds[id] = { ...hold, checked: true }
        else {
          delete holds[id]
          dropped++
        }
      }
      return { holds }
    })
    return dropped
  }

  async #change(change: Change): Promise<void> {
    const attempts = this.#options.attempts ?? 60
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const { ledger, etag, stored } = await this.#read()
      const next = change(ledger)
      // why: a ledger built from the records is stored even when nothing changes, once
      if (next === null && stored) return
      const written = next ?? ledger
      if (stored && !etag) throw new MissingEtagError(this.#key)
      const condition = stored ? { onlyIfMatch: etag! } : { onlyIfNew: true as const }
      const { modified } = await this.#store.setJSON(this.#key, written, condition)
      if (modified) return
      // why: spread the contenders of a rush over time instead of colliding again at once
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(25 * attempt, 250)),
      )
    }
    throw new UnitLedgerBusyError(this.#key, attempts)
  }

  async #read(): Promise<{ ledger: UnitLedger; etag: string | undefined; stored: boolean }> {
    const found = await this.#store.getWithMetadata(this.#key, { type: 'text' })
    if (found) {
      const ledger = parseLedger(found.data)
      // why: a damaged ledger is rebuilt from the records rather than guessed at
      if (ledger) return { ledger, etag: found.etag, stored: true }
      return { ledger: { holds: await this.#options.initial() }, etag: found.etag, stored: true }
    }
    return { ledger: { holds: await this.#options.initial() }, etag: undefined, stored: false }
  }
}

function parseLedger(text: string): UnitLedger | null {
  try {
    const value = JSON.parse(text) as Partial<UnitLedger>
    if (typeof value.holds !== 'object' || value.holds === null) return null
    const holds: UnitLedger['holds'] = {}
    for (const [id, hold] of Object.entries(value.holds)) {
      if (!hold || !Number.isInteger(hold.units) || hold.units < 0) return null
      holds[id] = hold
    }
    return { holds }
  } catch {
    return null
  }
}

/** The keys of every stored ledger (one listing; a shop has a ledger per capped product or variant). */
export async function storedLedgerKeys(store: Store): Promise<Set<string>> {
  const keys = new Set<string>()
  for await (const page of store.list({ prefix: UNIT_LEDGER_PREFIX, paginate: true })) {
    for (const { key } of page.blobs) keys.add(key)
  }
  return keys
}
