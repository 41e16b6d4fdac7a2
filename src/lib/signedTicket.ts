import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'

/**
 * A signed, short-lived, single-use ticket a function of this deploy gives another one it
 * starts (the export worker): `v1.<base64url(JSON {s: subject, e: expiry ms, r: nonce})>.<base64url(HMAC-SHA256)>`,
 * keyed by a key derived from a deploy secret and the ticket's purpose, so a ticket of one
 * purpose is worth nothing for another. The signature is compared in constant time; the
 * receiver spends the nonce (onlyIfNew) so a replay is refused.
 */

const VERSION = 'v1'

/** What a valid ticket says. */
export interface SignedTicket {
  /** What the ticket is for (an export id). */
  subject: string
  /** Expiry, ms since the epoch. */
  expiresAt: number
  /** Single use: the receiver records it as spent. */
  nonce: string
}

export type TicketCheck =
  | ({ ok: true } & SignedTicket)
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' | 'expired' }

function sign(purpose: string, payload: string, secret: string): Buffer {
  const key = createHmac('sha256', secret).update(purpose).digest()
  return createHmac('sha256', key).update(`${VERSION}.${payload}`).digest()
}

/** A ticket for `subject`, valid from `now` for `ttlMs`. */
export function issueTicket(
  purpose: string,
  subject: string,
  secret: string,
  now: number,
  ttlMs: number,
): string {
  const payload = Buffer.from(
    JSON.stringify({ s: subject, e: now + ttlMs, r: randomUUID() }),
  ).toString('base64url')
  return `${VERSION}.${payload}.${sign(purpose, payload, secret).toString('base64url')}`
}

/** Checks a ticket's form, signature (constant time) and expiry at `now`. */
export function checkTicket(
  purpose: string,
  ticket: string | null,
  secret: string,
  now: number,
): TicketCheck {
  if (!ticket) return { ok: false, reason: 'missing' }
  const [version, payload, signature, ...rest] = ticket.split('.')
  if (version !== VERSION || !payload || !signature || rest.length > 0) {
    return { ok: false, reason: 'malformed' }
  }
  const given = Buffer.from(signature, 'base64url')
  const expected = sign(purpose, payload, secret)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' }
  }
  let fields: { s?: unknown; e?: unknown; r?: unknown }
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, reason: 'malformed' }
  }
  const { s, e, r } = fields
  if (typeof s !== 'string' || typeof e !== 'number' || typeof r !== 'string') {
    return { ok: false, reason: 'malformed' }
  }
  if (now >= e) return { ok: false, reason: 'expired' }
  return { ok: true, subject: s, expiresAt: e, nonce: r }
}
