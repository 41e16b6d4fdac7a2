import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import type { AppConfig } from '../config.js'
import { UnauthorizedError } from '../errors.js'
import type { Logger } from '../log.js'

/**
 * The rebuild ticket: how the background index rebuild knows that this deploy started it.
 * `r1.<expiry ms>.<nonce>.<base64url(HMAC-SHA256)>`, keyed by a key derived from
 * UNSUBSCRIBE_SECRET and this purpose (worth nothing as a delivery ticket or unsubscribe token).
 *
 * Replay: a ticket starts runs only until it expires; a replay inside that time can only start
 * the same run again, which is idempotent and claimed (one run at a time), and is what lets
 * Netlify's own retries of a failed background call (after 1 and 2 minutes) resume the rebuild.
 */
export const REBUILD_TICKET_TTL_MS = 5 * 60 * 1000

const VERSION = 'r1'
const PURPOSE = 'index-rebuild-ticket/v1'

function signature(body: string, secret: string): Buffer {
  const key = createHmac('sha256', secret).update(PURPOSE).digest()
  return createHmac('sha256', key).update(body).digest()
}

/** A ticket for runs of the index rebuild, valid from `now` for the TTL. */
export function issueRebuildTicket(secret: string, now: number): string {
  const body = `${VERSION}.${now + REBUILD_TICKET_TTL_MS}.${randomUUID()}`
  return `${body}.${signature(body, secret).toString('base64url')}`
}

/** Why a ticket is refused, or null when it is well signed and live at `now`. */
function problemOf(ticket: string | null, secret: string, now: number): string | null {
  if (!ticket) return 'missing'
  const parts = ticket.split('.')
  if (parts.length !== 4 || parts[0] !== VERSION || !/^\d{1,15}$/.test(parts[1])) {
    return 'malformed'
  }
  const given = Buffer.from(parts[3], 'base64url')
  const expected = signature(parts.slice(0, 3).join('.'), secret)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return 'bad-signature'
  }
  return now >= Number(parts[1]) ? 'expired' : null
}

/**
 * Checks the bearer ticket of a request to the rebuild function at `now`; throws 401
 * `Unauthorized` (and logs why) unless it is well signed and live.
 */
export function requireRebuildTicket(
  bearer: string | null,
  config: Pick<AppConfig, 'unsubscribeSecret'>,
  log: Logger,
  now: number = Date.now(),
): void {
  const secret = config.unsubscribeSecret
  const problem = secret ? problemOf(bearer, secret, now) : 'no-secret'
  if (problem === null) return
  log.warn('storage.index_rebuild.ticket_rejected', { reason: problem })
  throw new UnauthorizedError('Unauthorized')
}
