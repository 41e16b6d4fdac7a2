import { createHash } from 'node:crypto'
import type { RestockHold, StockRecord, StockRef, StockRepository } from './stockRecords.js'

/**
 * The units of a product (or variant) held for the people a restock e-mail named (お取り置き):
 * kept in the product's stock record (`stock/{target}`, storage/stockRecords.ts) beside the
 * quantity and the wave ledger, so that giving a unit to a hold, a shopper claiming it (the
 * quantity goes down by one), a hold ending and the size of the next wave are each one
 * compare-and-swap of that one record: no unit is ever held twice or lost between two writes.
 *
 * A hold is `pending` from the wave that chose its subscriber until its e-mail is accepted by the
 * provider, then `open` for its `hours` (its end is counted from that moment), then `claimed`
 * (a reservation took the unit) or `expired` (unclaimed at its end, or its e-mail never went).
 * Pending and open holds keep their unit out of the next wave.
 */

/** The longest hold, hours (a week). */
export const MAX_HOLD_HOURS = 168

/**
 * How long a hold whose e-mail never went (its delivery died) keeps its unit past its hours:
 * then its unit goes back.
 */
export const UNSENT_HOLD_GRACE_MS = 60 * 60_000

/** How long a closed hold's entry is kept after it closed (a reopened link still finds it). */
export const CLOSED_HOLD_KEPT_MS = 30 * 24 * 60 * 60_000

/**
 * The id of the hold a notice gives a subscriber: `hld_` + 24 hex of a digest of both, so the
 * same notice run twice (a retry, a crash) names the same hold and holds one unit.
 */
export function holdIdFor(notificationId: string, subscriptionId: string): string {
  const digest = createHash('sha256').update(`${notificationId}\n${subscriptionId}`).digest('hex')
  return `hld_${digest.slice(0, 24)}`
}

/** Whether `value` has the shape of a hold id. */
export function isHoldId(value: unknown): value is string {
  return typeof value === 'string' && /^hld_[0-9a-f]{24}$/.test(value)
}

/** The holds of a record (none on a record stored before holds). */
export function holdsOf(record: StockRecord): Record<string, RestockHold> {
  return record.holds ?? {}
}

/** Units pending or open holds keep out of the next wave. */
export function unitsOnHold(record: StockRecord): number {
  let held = 0
  for (const hold of Object.values(holdsOf(record))) {
    if (hold.state === 'pending' || hold.state === 'open') held++
  }
  return held
}

/** Units a wave (or a staff send with holds) may offer now: in stock and not held. */
export function unheldUnits(record: StockRecord): number {
  return Math.max(0, (record.quantity ?? 0) - unitsOnHold(record))
}

/** What the 在庫 screen shows of a product's holds. */
export interface HoldCounts {
  /** Holds pending or open (their units kept). */
  open: number
  claimed: number
  expired: number
}

export function holdCountsOf(record: StockRecord): HoldCounts {
  const totals = record.holdTotals ?? { claimed: 0, expired: 0 }
  return { open: unitsOnHold(record), claimed: totals.claimed, expired: totals.expired }
}

/** A hold to give a unit: who, by which notice, for how long. */
export interface HoldRequest {
  subscriptionId: string
  notificationId: string
  hours: number
}

/**
 * Gives each request not held yet a pending hold, while units are unheld (the oldest first, in
 * the order given); a request already held (the same notice run twice) changes nothing.
 */
export function withHoldsAdded(
  record: StockRecord,
  requests: readonly HoldRequest[],
  now: number,
): StockRecord {
  const holds = { ...holdsOf(record) }
  let free = unheldUnits(record)
  let changed = false
  for (const request of requests) {
    const id = holdIdFor(request.notificationId, request.subscriptionId)
    if (holds[id] || free <= 0) continue
    holds[id] = {
      ...request,
      state: 'pending',
      createdAt: new Date(now).toISOString(),
      sentAt: null,
      endsAt: null,
    }
    free--
    changed = true
  }
  return changed ? { ...record, holds } : record
}

/**
 * Opens the holds whose e-mails are being sent now: a pending hold gets its end (`now` + its
 * hours); a request without a hold (its wave's write was lost) gets one if a unit is unheld. An
 * open hold keeps the end it has, so a batch sent again carries the same link.
 */
export function withHoldsOpened(
  record: StockRecord,
  requests: readonly HoldRequest[],
  now: number,
): StockRecord {
  const added = withHoldsAdded(record, requests, now)
  const holds = { ...holdsOf(added) }
  let changed = added !== record
  for (const request of requests) {
    const id = holdIdFor(request.notificationId, request.subscriptionId)
    const hold = holds[id]
    if (hold?.state !== 'pending') continue
    holds[id] = {
      ...hold,
      state: 'open',
      sentAt: new Date(now).toISOString(),
      endsAt: new Date(now + hold.hours * 3_600_000).toISOString(),
    }
    changed = true
  }
  return changed ? { ...added, holds } : record
}

/** Gives back the units of holds whose e-mail the provider refused (they were never sent). */
export function withHoldsUnsent(
  record: StockRecord,
  holdIds: readonly string[],
  now: number,
): StockRecord {
  const ending = holdIds.filter((id) => {
    const state = holdsOf(record)[id]?.state
    return state === 'pending' || state === 'open'
  })
  return ending.length === 0 ? record : closeHolds(record, ending, 'unsent', now)
}

/** The holds that end at `now`: open past their end, or pending (never sent) past the grace. */
export function endingHolds(record: StockRecord, now: number): string[] {
  return Object.entries(holdsOf(record))
    .filter(([, hold]) => {
      if (hold.state === 'open') return hold.endsAt !== null && Date.parse(hold.endsAt) <= now
      if (hold.state !== 'pending') return false
      return Date.parse(hold.createdAt) + hold.hours * 3_600_000 + UNSENT_HOLD_GRACE_MS <= now
    })
    .map(([id]) => id)
}

/**
 * Ends every hold that ends at `now` (its unit goes back) and drops entries closed more than
 * CLOSED_HOLD_KEPT_MS ago. The same record at the same time changes nothing the second time.
 */
export function withHoldsEnded(record: StockRecord, now: number): StockRecord {
  const ending = endingHolds(record, now)
  let next = record
  const unclaimed = ending.filter((id) => holdsOf(record)[id].state === 'open')
  const unsent = ending.filter((id) => holdsOf(record)[id].state === 'pending')
  if (unclaimed.length > 0) next = closeHolds(next, unclaimed, 'unclaimed', now)
  if (unsent.length > 0) next = closeHolds(next, unsent, 'unsent', now)
  const stale = Object.entries(holdsOf(next)).filter(
    ([, hold]) =>
      hold.closedAt !== undefined && Date.parse(hold.closedAt) + CLOSED_HOLD_KEPT_MS <= now,
  )
  if (stale.length === 0) return next
  const holds = { ...holdsOf(next) }
  for (const [id] of stale) delete holds[id]
  return { ...next, holds }
}

function closeHolds(
  record: StockRecord,
  ids: readonly string[],
  endReason: 'unclaimed' | 'unsent',
  now: number,
): StockRecord {
  const holds = { ...holdsOf(record) }
  const closedAt = new Date(now).toISOString()
  for (const id of ids) holds[id] = { ...holds[id], state: 'expired', closedAt, endReason }
  const totals = record.holdTotals ?? { claimed: 0, expired: 0 }
  // why: a hold whose e-mail never went was never offered; only unclaimed ones count as expired
  const expired = endReason === 'unclaimed' ? ids.length : 0
  return { ...record, holds, holdTotals: { ...totals, expired: totals.expired + expired } }
}

/**
 * The claim of an open hold before its end: the hold becomes `claimed` by `reservationId` and
 * the quantity goes down by one (never below 0: a hold sent is kept even when the stock fell
 * meanwhile). Anything else changes nothing.
 */
export function withHoldClaimed(
  record: StockRecord,
  holdId: string,
  reservationId: string,
  now: number,
): StockRecord {
  const hold = holdsOf(record)[holdId]
  if (hold?.state !== 'open' || hold.endsAt === null || Date.parse(hold.endsAt) <= now) {
    return record
  }
  const totals = record.holdTotals ?? { claimed: 0, expired: 0 }
  return {
    ...record,
    quantity: Math.max(0, (record.quantity ?? 0) - 1),
    updatedAt: new Date(now).toISOString(),
    holds: {
      ...holdsOf(record),
      [holdId]: { ...hold, state: 'claimed', reservationId, closedAt: new Date(now).toISOString() },
    },
    holdTotals: { ...totals, claimed: totals.claimed + 1 },
  }
}

/** An open hold as the shopper's queue page shows it. */
export interface OpenHold {
  holdId: string
  /** When it ends (ISO). */
  endsAt: string
}

/**
 * The open hold of one subscription, with its end, or null (none, or ended by `now`). Reads the
 * stock record of the product, or of the variant the subscription waits for.
 */
export async function openHoldFor(
  stock: Pick<StockRepository, 'get'>,
  subscription: { id: string; productSlug: string; variant?: string },
  now: number,
): Promise<OpenHold | null> {
  const ref: StockRef =
    subscription.variant === undefined
      ? { productSlug: subscription.productSlug }
      : { productSlug: subscription.productSlug, variant: subscription.variant }
  const record = await stock.get(ref)
  if (!record) return null
  for (const [holdId, hold] of Object.entries(holdsOf(record))) {
    if (hold.subscriptionId !== subscription.id || hold.state !== 'open') continue
    if (hold.endsAt !== null && Date.parse(hold.endsAt) > now)
      return { holdId, endsAt: hold.endsAt }
  }
  return null
}
