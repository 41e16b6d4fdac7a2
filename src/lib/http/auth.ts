import { createHash, timingSafeEqual } from 'node:crypto'
import type { TokenGroup } from '../routes.js'
import type { AppConfig } from '../config.js'
import { HttpError } from './errors.js'
import type { Logger } from '../log.js'

/** Neither ADMIN_API_TOKEN nor PREORDER_API_TOKEN is set: every admin request is refused. */
export class MissingAdminTokenError extends Error {
  override name = 'MissingAdminTokenError'
  constructor() {
    super(
      'Neither ADMIN_API_TOKEN nor PREORDER_API_TOKEN is set, so every admin request is refused. ' +
        'Set at least one of them in the site environment (or .env locally).',
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

/** Throws 401 `Unauthorized` unless the request carries the group's token (§5, D7). */
export function requireToken(
  req: Request,
  group: TokenGroup,
  config: AppConfig,
  log: Logger,
): void {
  const expected = expectedToken(group, config)
  if (expected === null) {
    log.error('auth.misconfigured', new MissingAdminTokenError())
    throw new HttpError(401, 'Unauthorized')
  }
  const given = bearerToken(req)
  if (given === null || !tokensMatch(given, expected)) {
    log.warn('auth.rejected', { reason: given === null ? 'missing bearer token' : 'wrong token' })
    throw new HttpError(401, 'Unauthorized')
  }
}
