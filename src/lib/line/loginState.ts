import { createHash } from 'node:crypto'
import type { LineSettings } from '../config.js'
import { InvalidInputError, InvalidSignatureError, LinkExpiredError } from '../errors.js'
import { PURPOSES } from '../signing/purposes.js'
import { keyedDigest, signToken, verifyToken } from '../signing/signedToken.js'

/**
 * The `state` of a LINE Login: a token of our signing module (purpose `lineLoginState`) naming
 * the product and variant signed up for, expiring after LOGIN_STATE_TTL_MS and single use (its
 * nonce is spent when the callback is answered: storage/lineContacts.ts). The PKCE
 * `code_verifier` and the OpenID `nonce` are keyed digests of the state's nonce, so the callback
 * derives them again and nothing of the login is stored or put in a cookie; the verifier itself
 * never leaves the server but to LINE's token endpoint.
 */

/** How long a login may take, from the button to the callback. */
export const LOGIN_STATE_TTL_MS = 10 * 60 * 1000

/** What a login is for. */
export interface LoginTarget {
  productSlug: string
  /** The variant's id, for a product with variants. */
  variant?: string
}

/** What a genuine state says, with the secrets derived from it. */
export interface LoginState extends LoginTarget {
  /** The state's own nonce: spent once. */
  stateNonce: string
  /** PKCE `code_verifier` (43 characters, RFC 7636). */
  codeVerifier: string
  /** The OpenID `nonce` the ID token must carry. */
  oidcNonce: string
}

function derived(stateNonce: string, secret: string) {
  return {
    codeVerifier: keyedDigest(PURPOSES.lineLoginVerifier, secret, stateNonce, 43),
    oidcNonce: keyedDigest(PURPOSES.lineLoginNonce, secret, stateNonce, 32),
  }
}

/** The PKCE S256 challenge of a verifier. */
export function codeChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url')
}

/** A new state for `target` at `now` (ms), with its verifier and nonce. */
export function newLoginState(
  target: LoginTarget,
  settings: Pick<LineSettings, 'loginChannelSecret'>,
  now: number,
): { state: string } & LoginState {
  const secret = settings.loginChannelSecret
  const state = signToken(
    PURPOSES.lineLoginState,
    { p: target.productSlug, v: target.variant ?? '' },
    secret,
    { expiresAt: now + LOGIN_STATE_TTL_MS, once: true },
  )
  return { state, ...readLoginState(state, settings, now) }
}

/**
 * The claims of a state that is genuine and unexpired: 400 when there is none, 403 when it is not
 * ours, 410 when it has expired. (Its single use is decided by the caller, which spends it.)
 */
export function readLoginState(
  state: string | null,
  settings: Pick<LineSettings, 'loginChannelSecret'>,
  now: number,
): LoginState {
  const check = verifyToken(PURPOSES.lineLoginState, state, settings.loginChannelSecret, now)
  if (!check.ok) {
    if (check.reason === 'expired') throw new LinkExpiredError('Login has expired')
    if (check.reason === 'bad-signature') throw new InvalidSignatureError('Invalid login state')
    throw new InvalidInputError('Invalid login state')
  }
  if (!check.nonce) throw new InvalidInputError('Invalid login state')
  const { p, v } = check.fields
  return {
    productSlug: p,
    ...(v ? { variant: v } : {}),
    stateNonce: check.nonce,
    ...derived(check.nonce, settings.loginChannelSecret),
  }
}
