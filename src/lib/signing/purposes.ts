import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * What every signed token and link shares (signedToken.ts): its purposes, the key of a purpose,
 * the one constant-time comparison of a signature, and what a check answers.
 */

/** Every purpose a token can have; the name is part of the key, never of the token. */
export const PURPOSES = {
  /** The background restock delivery's start (restock/deliveryTicket.ts). */
  deliveryTicket: 'restock-delivery-ticket/v1',
  /** The background CSV export's start (admin/listExports.ts). */
  exportTicket: 'list-export-ticket/v1',
  /** The background index rebuild's start (indexing/rebuildTicket.ts). */
  rebuildTicket: 'index-rebuild-ticket/v1',
  /** A reservation's manage page (reservations/manageLink.ts). */
  manageLink: 'reservation-manage/v1',
  /** The double opt-in confirmation of a restock sign-up (compliance/confirmationToken.ts). */
  confirmLink: 'restock-confirm/v1',
  /** A restock subscription's unsubscribe link (compliance/unsubscribeToken.ts). */
  unsubscribeLink: 'restock-unsubscribe/v1',
  /** The keep link of a long-waiting sign-up's 「引き続き…」 e-mail (compliance/keepToken.ts). */
  keepLink: 'restock-keep/v1',
  /** A restock sign-up's 「入荷待ちの状況」 page (subscriptions/statusLink.ts). */
  statusLink: 'restock-status/v1',
  /** A restock e-mail's counted product link (demand/clickLink.ts). */
  clickLink: 'restock-click/v1',
  /** A restock e-mail's お取り置き link (restock/holdLink.ts). */
  holdLink: 'restock-hold/v1',
  /** The recipient named by a click link: a keyed digest, not a token (`keyedDigest`). */
  clickRecipient: 'restock-click-recipient/v1',
  /** The `state` of a LINE Login: single use, expiring (line/lineLogin.ts). */
  lineLoginState: 'line-login-state/v1',
  /** A login's PKCE `code_verifier`, derived from its state's nonce: a keyed digest. */
  lineLoginVerifier: 'line-login-verifier/v1',
  /** A login's OpenID `nonce`, derived from its state's nonce: a keyed digest. */
  lineLoginNonce: 'line-login-nonce/v1',
} as const

export type Purpose = (typeof PURPOSES)[keyof typeof PURPOSES]

const RECORD = ['id', 'productSlug'] as const

/**
 * The fields a token of each purpose carries, in the order they are signed in: a token with
 * others, or in another order, cannot be one of the purpose's (`malformed`).
 */
export const TOKEN_FIELDS: Readonly<Record<Purpose, readonly string[]>> = {
  [PURPOSES.deliveryTicket]: ['s'],
  [PURPOSES.exportTicket]: ['s'],
  [PURPOSES.rebuildTicket]: ['s'],
  [PURPOSES.manageLink]: RECORD,
  [PURPOSES.confirmLink]: RECORD,
  [PURPOSES.unsubscribeLink]: RECORD,
  [PURPOSES.keepLink]: [...RECORD, 'a'],
  [PURPOSES.statusLink]: RECORD,
  [PURPOSES.clickLink]: ['n', 'r', 'u'],
  [PURPOSES.clickRecipient]: [],
  [PURPOSES.holdLink]: ['h', 'p', 'v'],
  [PURPOSES.lineLoginState]: ['p', 'v'],
  [PURPOSES.lineLoginVerifier]: [],
  [PURPOSES.lineLoginNonce]: [],
}

/** The names `e` and `r` are the token's own; a purpose's fields use any other. */
export type TokenFields = Record<string, string>

/** What a genuine token says. */
export interface TokenClaims {
  /** The purpose's own fields (a record's id and product, a notice id …). */
  fields: TokenFields
  /** Expiry, ms since the epoch; null for a token that never expires (an unsubscribe link). */
  expiresAt: number | null
  /** The token's own id when it is single-use (spent by its receiver); else null. */
  nonce: string | null
}

export type TokenCheck =
  | ({ ok: true } & TokenClaims)
  /** Well signed but past its expiry: the claims are genuine, they just no longer act. */
  | ({ ok: false; reason: 'expired' } & TokenClaims)
  | { ok: false; reason: 'missing' | 'malformed' | 'bad-signature' }

/** The key a purpose signs with: HMAC-SHA256(secret, purpose). */
export function purposeKey(purpose: Purpose, secret: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest()
}

/**
 * Whether the signature `given` is `expected` (both text: base64url, or hex for the stock
 * webhook), in constant time after a length check: the one comparison every signed link, ticket
 * and webhook signature of ours goes through, older formats included.
 */
export function sameSignature(given: string, expected: string): boolean {
  const offered = Buffer.from(given)
  const wanted = Buffer.from(expected)
  return offered.length === wanted.length && timingSafeEqual(offered, wanted)
}

/** A genuine token's claims, refused as `expired` at or after their expiry. */
export function checkExpiry(claims: TokenClaims, now: number): TokenCheck {
  if (claims.expiresAt !== null && now >= claims.expiresAt) {
    return { ok: false, reason: 'expired', ...claims }
  }
  return { ok: true, ...claims }
}
