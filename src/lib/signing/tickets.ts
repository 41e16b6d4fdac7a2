import type { Purpose } from './purposes.js'
import { signToken, verifyToken } from './signedToken.js'

/**
 * Tickets: signed, short-lived, single-use tokens a function of this deploy gives another one it
 * starts (the restock delivery, the CSV export, the index rebuild). The field `s` names what the
 * ticket is for; the receiver spends the nonce where a replay must be refused.
 */

/** What a valid ticket says. */
export interface SignedTicket {
  /** What the ticket is for (a notice id, an export id). */
  subject: string
  /** Expiry, ms since the epoch. */
  expiresAt: number
  /** Single use: the receiver records it as spent. */
  nonce: string
}

export type TicketCheck =
  | ({ ok: true } & SignedTicket)
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' | 'expired' }

/** A ticket of `purpose` for `subject`, valid from `now` for `ttlMs`. */
export function issueTicket(
  purpose: Purpose,
  subject: string,
  secret: string,
  now: number,
  ttlMs: number,
): string {
  return signToken(purpose, { s: subject }, secret, { expiresAt: now + ttlMs, once: true })
}

/** Checks a ticket's form, signature (constant time) and expiry at `now`. */
export function checkTicket(
  purpose: Purpose,
  ticket: string | null,
  secret: string,
  now: number,
): TicketCheck {
  const check = verifyToken(purpose, ticket, secret, now)
  if (!check.ok) return { ok: false, reason: check.reason }
  const subject = check.fields.s
  if (subject === undefined || check.expiresAt === null || check.nonce === null) {
    return { ok: false, reason: 'malformed' }
  }
  return { ok: true, subject, expiresAt: check.expiresAt, nonce: check.nonce }
}
