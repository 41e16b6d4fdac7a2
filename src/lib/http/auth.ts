import { createHash, timingSafeEqual } from 'node:crypto'
import type { Actor } from '../audit/auditTrail.js'
import type { TokenGroup } from '../routes.js'
import type { AppConfig } from '../config.js'
import { HttpError } from './errors.js'
import type { Logger } from '../log.js'

/** Neither ADMIN_API_TOKEN, PREORDER_API_TOKEN nor a STAFF_TOKENS entry is set: every admin request is refused. */
export class MissingAdminTokenError extends Error {
  override name = 'MissingAdminTokenError'
  constructor() {
    super(
      'Neither ADMIN_API_TOKEN, PREORDER_API_TOKEN nor STAFF_TOKENS is set, so every admin request ' +
        'is refused. Set at least one of them in the site environment (or .env locally).',
    )
  }
}

/** An entry of STAFF_TOKENS could not be read; it matches nothing. Names its position, never the token. */
export class MalformedStaffTokenError extends Error {
  override name = 'MalformedStaffTokenError'
  constructor(position: number, reason: string) {
    super(
      `STAFF_TOKENS entry ${position} is ignored: ${reason}. ` +
        'Write each entry as name:token:group (group admin or preorder), separated by commas.',
    )
  }
}

/** The token a group accepts: its own variable, else the other group's (D7); null when neither is set. */
export function expectedToken(group: TokenGroup, config: AppConfig): string | null {
  const own = group === 'admin' ? config.adminApiToken : config.preorderApiToken
  const other = group === 'admin' ? config.preorderApiToken : config.adminApiToken
  return own ?? other
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/** Constant-time comparison that does not reveal the expected token's length either. */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected))
}

/** The request's `Authorization: Bearer …` credential, or null. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.get('authorization')
  const match = header?.match(/^Bearer[ \t]+(\S+)\s*$/i)
  return match ? match[1] : null
}

/** The tokens a group accepts and whom each names: its variable (or the other's, D7), its staff. */
function acceptedTokens(group: TokenGroup, config: AppConfig): { actor: Actor; token: string }[] {
  const shared = expectedToken(group, config)
  const sharedActor =
    group === 'admin'
      ? config.adminApiToken
        ? 'admin'
        : 'preorder'
      : config.preorderApiToken
        ? 'preorder'
        : 'admin'
  return [
    ...(shared === null ? [] : [{ actor: sharedActor, token: shared }]),
    ...config.staffTokens
      .filter((staff) => staff.group === group)
      .map((staff) => ({ actor: staff.name, token: staff.token })),
  ]
}

/**
 * Answers who the request's token names, or throws 401 `Unauthorized` unless it carries one of
 * the group's tokens (§5, D7, STAFF_TOKENS). Every candidate is compared (digest, constant time).
 */
export function requireToken(
  req: Request,
  group: TokenGroup,
  config: AppConfig,
  log: Logger,
): Actor {
  for (const { position, reason } of config.malformedStaffTokens) {
    log.error('auth.staffTokenMalformed', new MalformedStaffTokenError(position, reason))
  }
  const accepted = acceptedTokens(group, config)
  if (accepted.length === 0) {
    log.error('auth.misconfigured', new MissingAdminTokenError())
    throw new HttpError(401, 'Unauthorized')
  }
  const given = bearerToken(req)
  let actor: Actor | null = null
  if (given !== null) {
    for (const candidate of accepted) {
      // why: no early exit, so the time taken does not tell which entry matched
      if (tokensMatch(given, candidate.token) && actor === null) actor = candidate.actor
    }
  }
  if (actor === null) {
    log.warn('auth.rejected', { reason: given === null ? 'missing bearer token' : 'wrong token' })
    throw new HttpError(401, 'Unauthorized')
  }
  return actor
}
