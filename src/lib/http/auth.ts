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
        'Write each entry as name:token:group (group admin, preorder or admin+preorder), separated by commas.',
    )
  }
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

/** Who a token names and the groups (§5) whose endpoints accept it. */
export interface Identity {
  actor: Actor
  groups: TokenGroup[]
}

/**
 * Every token the service accepts, whom each names and its groups: ADMIN_API_TOKEN (`admin`) and
 * PREORDER_API_TOKEN (`preorder`), each also in the other group while that one's variable is
 * unset (D7), then every STAFF_TOKENS entry with its own groups.
 */
function tokenHolders(config: AppConfig): (Identity & { token: string })[] {
  const { adminApiToken, preorderApiToken } = config
  const shared: (Identity & { token: string })[] = []
  if (adminApiToken) {
    shared.push({
      actor: 'admin',
      token: adminApiToken,
      groups: preorderApiToken ? ['admin'] : ['admin', 'preorder'],
    })
  }
  if (preorderApiToken) {
    shared.push({
      actor: 'preorder',
      token: preorderApiToken,
      groups: adminApiToken ? ['preorder'] : ['admin', 'preorder'],
    })
  }
  return [
    ...shared,
    ...config.staffTokens.map((staff) => ({
      actor: staff.name,
      token: staff.token,
      groups: [...staff.groups],
    })),
  ]
}

/**
 * Whom the request's token names among `holders`: every candidate is compared (digest, constant
 * time, no early exit, so the time taken does not tell which entry matched); the first match wins.
 */
function holderOf(
  req: Request,
  holders: readonly (Identity & { token: string })[],
  log: Logger,
): Identity {
  const given = bearerToken(req)
  let found: Identity | null = null
  if (given !== null) {
    for (const candidate of holders) {
      if (tokensMatch(given, candidate.token) && found === null) {
        found = { actor: candidate.actor, groups: candidate.groups }
      }
    }
  }
  if (found === null) {
    log.warn('auth.rejected', { reason: given === null ? 'missing bearer token' : 'wrong token' })
    throw new HttpError(401, 'Unauthorized')
  }
  return found
}

/** Logs every malformed STAFF_TOKENS entry; answers the holders `accepts` keeps, or 401 if none. */
function acceptedHolders(
  config: AppConfig,
  log: Logger,
  accepts: (groups: TokenGroup[]) => boolean,
): (Identity & { token: string })[] {
  for (const { position, reason } of config.malformedStaffTokens) {
    log.error('auth.staffTokenMalformed', new MalformedStaffTokenError(position, reason))
  }
  const accepted = tokenHolders(config).filter((holder) => accepts(holder.groups))
  if (accepted.length === 0) {
    log.error('auth.misconfigured', new MissingAdminTokenError())
    throw new HttpError(401, 'Unauthorized')
  }
  return accepted
}

/**
 * Answers who the request's token names, or throws 401 `Unauthorized` unless it carries one of
 * the group's tokens (§5, D7, STAFF_TOKENS).
 */
export function requireToken(
  req: Request,
  group: TokenGroup,
  config: AppConfig,
  log: Logger,
): Actor {
  const accepted = acceptedHolders(config, log, (groups) => groups.includes(group))
  return holderOf(req, accepted, log).actor
}

/**
 * Answers who the request's token names and all its groups, or throws 401 `Unauthorized` unless
 * it carries a token of either group (the dashboard's sign-in asks this).
 */
export function requireAnyToken(req: Request, config: AppConfig, log: Logger): Identity {
  return holderOf(
    req,
    acceptedHolders(config, log, () => true),
    log,
  )
}
