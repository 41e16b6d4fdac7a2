import { createHmac } from 'node:crypto'
import { sameSignature } from './purposes.js'

/**
 * The ID token of a LINE Login (OpenID Connect) for a web login: a JWT signed HS256 with the
 * Login channel's secret (LINE Login v2.1 reference, "ID tokens"). Checked here, before any claim
 * is believed: the header's `alg`, the signature (constant time), then `iss`, `aud`, `exp` and
 * the `nonce` this login sent. Answers the user id (`sub`) or why it was refused.
 */

/** The issuer of every LINE ID token. */
export const LINE_ID_TOKEN_ISSUER = 'https://access.line.me'

export interface IdTokenCheck {
  idToken: string
  channelId: string
  channelSecret: string
  /** The nonce the login asked LINE to put into the token. */
  nonce: string
  /** Now, ms since the epoch. */
  now: number
}

export type IdTokenResult =
  | { ok: true; userId: string }
  | {
      ok: false
      reason:
        | 'malformed'
        | 'bad-signature'
        | 'wrong-issuer'
        | 'wrong-audience'
        | 'expired'
        | 'wrong-nonce'
    }

function part(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

/** The HS256 signature of `header.payload` with `secret` (base64url). */
export function hs256(signingInput: string, secret: string): string {
  return createHmac('sha256', secret).update(signingInput).digest('base64url')
}

export function verifyLineIdToken(check: IdTokenCheck): IdTokenResult {
  const pieces = check.idToken.split('.')
  if (pieces.length !== 3 || pieces.some((piece) => !/^[A-Za-z0-9_-]+$/.test(piece))) {
    return { ok: false, reason: 'malformed' }
  }
  const [header, payload, signature] = pieces
  const head = part(header)
  if (!head || head.alg !== 'HS256') return { ok: false, reason: 'malformed' }
  if (!sameSignature(signature, hs256(`${header}.${payload}`, check.channelSecret))) {
    return { ok: false, reason: 'bad-signature' }
  }
  const claims = part(payload)
  if (!claims || typeof claims.sub !== 'string' || claims.sub.length === 0) {
    return { ok: false, reason: 'malformed' }
  }
  if (claims.iss !== LINE_ID_TOKEN_ISSUER) return { ok: false, reason: 'wrong-issuer' }
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud]
  if (!audience.includes(check.channelId)) return { ok: false, reason: 'wrong-audience' }
  if (typeof claims.exp !== 'number' || check.now >= claims.exp * 1000) {
    return { ok: false, reason: 'expired' }
  }
  if (typeof claims.nonce !== 'string' || !sameSignature(claims.nonce, check.nonce)) {
    return { ok: false, reason: 'wrong-nonce' }
  }
  return { ok: true, userId: claims.sub }
}
