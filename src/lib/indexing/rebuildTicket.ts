import type { AppConfig } from '../config.js'
import { UnauthorizedError } from '../errors.js'
import type { Logger } from '../log.js'
import { PURPOSES } from '../signing/purposes.js'
import { checkTicket, issueTicket } from '../signing/tickets.js'

/**
 * The rebuild ticket: how the background index rebuild knows that this deploy started it. A
 * signed ticket (signing/tickets.ts) keyed by a key derived from UNSUBSCRIBE_SECRET and this
 * purpose (worth nothing as a delivery ticket or unsubscribe token).
 *
 * Replay: a ticket starts runs only until it expires; a replay inside that time can only start
 * the same run again, which is idempotent and claimed (one run at a time), and is what lets
 * Netlify's own retries of a failed background call (after 1 and 2 minutes) resume the rebuild,
 * so its nonce is never spent.
 */
export const REBUILD_TICKET_TTL_MS = 5 * 60 * 1000

// why: a rebuild covers every collection, so its ticket names no one thing
const SUBJECT = 'listing-rebuild'

/** A ticket for runs of the index rebuild, valid from `now` for the TTL. */
export function issueRebuildTicket(secret: string, now: number): string {
  return issueTicket(PURPOSES.rebuildTicket, SUBJECT, secret, now, REBUILD_TICKET_TTL_MS)
}

/**
 * Checks the bearer ticket of a request to the rebuild function at `now`; throws 401
 * `Unauthorized` (and logs why) unless it is well signed and live.
 */
export function requireRebuildTicket(
  bearer: string | null,
  config: Pick<AppConfig, 'unsubscribeSecret'>,
  log: Logger,
  now: number,
): void {
  const secret = config.unsubscribeSecret
  const check = secret
    ? checkTicket(PURPOSES.rebuildTicket, bearer, secret, now)
    : ({ ok: false, reason: 'no-secret' } as const)
  if (check.ok && check.subject === SUBJECT) return
  log.warn('storage.index_rebuild.ticket_rejected', { reason: check.ok ? 'foreign' : check.reason })
  throw new UnauthorizedError('Unauthorized')
}
