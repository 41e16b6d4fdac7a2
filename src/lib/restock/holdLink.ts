import { PURPOSES } from '../signing/purposes.js'
import { signToken, verifyToken } from '../signing/signedToken.js'
import { isUsableRecordId } from '../storage/recordIds.js'
import { isHoldId } from '../storage/restockHolds.js'
import type { StockRef } from '../storage/stockRecords.js'

/**
 * The お取り置き link of a restock e-mail: a signed token (signing/signedToken.ts) under
 * UNSUBSCRIBE_SECRET with a purpose of its own, naming one hold (`h`) of one product (`p`) or
 * variant (`v`, empty for a product without variants). It expires when the hold ends. The same
 * hold always gives the same link, so a batch sent again carries the same e-mail.
 */

/** Where a hold link points: its page on this site. */
export const HOLD_PATH = '/reservation/hold'

/** A hold's place: the product (or variant) whose stock record holds it, and its id. */
export interface HoldRef {
  target: StockRef
  holdId: string
}

export type HoldCheck =
  | { ok: true; ref: HoldRef }
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' }
  /** Genuine, but the hold it names has ended. */
  | { ok: false; reason: 'expired'; ref: HoldRef | null }

/** The token of hold `holdId` of `target`, ending at `endsAt` (ms). */
export function createHoldToken(ref: HoldRef, endsAt: number, secret: string): string {
  return signToken(
    PURPOSES.holdLink,
    { h: ref.holdId, p: ref.target.productSlug, v: ref.target.variant ?? '' },
    secret,
    { expiresAt: endsAt },
  )
}

/** The page an e-mail links to: `${siteUrl}/reservation/hold?token=...`. */
export function holdUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${HOLD_PATH}?token=${encodeURIComponent(token)}`
}

/** Checks a token in constant time, then its expiry against `now` (ms). */
export function verifyHoldToken(token: string | null, secret: string, now: number): HoldCheck {
  const check = verifyToken(PURPOSES.holdLink, token, secret, now)
  if (!check.ok && check.reason !== 'expired') return { ok: false, reason: check.reason }
  const { h, p, v } = check.fields
  const usable = isHoldId(h) && isUsableRecordId(p) && (v === '' || isUsableRecordId(v))
  const ref: HoldRef | null = usable
    ? { holdId: h, target: v === '' ? { productSlug: p } : { productSlug: p, variant: v } }
    : null
  if (!check.ok) return { ok: false, reason: 'expired', ref }
  if (!ref || check.expiresAt === null) return { ok: false, reason: 'malformed' }
  return { ok: true, ref }
}
