import { findProduct, productUrl } from '../productCatalogue.js'
import { verifyOlderClickLink } from '../signing/olderFormats.js'
import { PURPOSES } from '../signing/purposes.js'
import { keyedDigest, signToken, verifyToken } from '../signing/signedToken.js'
import { isUsableRecordId } from '../storage/recordIds.js'

/**
 * The product link of a restock e-mail goes through our own `GET /api/r` (docs/dashboard.md
 * "Clicks"), which counts one click per recipient per notice and redirects to the product page:
 * `/api/r?u={product slug}&t={signed token}`, the token (signing/signedToken.ts, under
 * UNSUBSCRIBE_SECRET) carrying the notice `n`, the recipient `d` and the product `u` and ending
 * CLICK_LINK_TTL_MS after the e-mail. No third party sees the click; the recipient is a keyed
 * digest of the subscription id, never an address.
 */

/** How long a link counts clicks. An older link still leads to the product page. */
export const CLICK_LINK_TTL_MS = 90 * 24 * 60 * 60 * 1000
const RECIPIENT_LENGTH = 22

export interface ClickLink {
  noticeId: string
  subscriptionId: string
  productSlug: string
}

/** The tracked product link of one restock e-mail (`now`: when the e-mail is made, ms). */
export function clickUrl(siteUrl: string, link: ClickLink, secret: string, now: number): string {
  const fields = {
    n: link.noticeId,
    d: keyedDigest(PURPOSES.clickRecipient, secret, link.subscriptionId, RECIPIENT_LENGTH),
    u: link.productSlug,
  }
  const t = signToken(PURPOSES.clickLink, fields, secret, { expiresAt: now + CLICK_LINK_TTL_MS })
  return `${siteUrl.replace(/\/+$/, '')}/api/r?${new URLSearchParams({ u: link.productSlug, t })}`
}

export type ClickCheck =
  | { counts: true; noticeId: string; recipient: string }
  | { counts: false; reason: 'malformed' | 'bad-signature' | 'expired' }

/** Where a click goes: the product's page, or the shop's home for a slug the catalogue lacks. */
export function clickTarget(params: URLSearchParams, siteUrl: string): string {
  const slug = params.get('u') ?? ''
  return isUsableRecordId(slug) && findProduct(slug)
    ? productUrl(slug, siteUrl)
    : `${siteUrl.replace(/\/+$/, '')}/`
}

/**
 * Whether a click counts: a signature that matches (constant time) on a link not yet expired.
 * A link without a token is a click link in its older form (signing/olderFormats.ts).
 */
export function checkClick(params: URLSearchParams, secret: string, now: number): ClickCheck {
  const token = params.get('t')
  const check =
    token === null
      ? verifyOlderClickLink(params, secret, now)
      : verifyToken(PURPOSES.clickLink, token, secret, now)
  if (!check.ok) {
    return { counts: false, reason: check.reason === 'missing' ? 'malformed' : check.reason }
  }
  const { n, d } = check.fields
  if (!isUsableRecordId(n) || d === undefined || !/^[A-Za-z0-9_-]{22}$/.test(d)) {
    return { counts: false, reason: 'malformed' }
  }
  return { counts: true, noticeId: n, recipient: d }
}
