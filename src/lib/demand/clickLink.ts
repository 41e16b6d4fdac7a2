import { findProduct, productUrl } from '../productCatalogue.js'
import { verifyOlderClickLink } from '../signing/olderFormats.js'
import { PURPOSES } from '../signing/purposes.js'
import { keyedDigest, signatureFor, verifySignature } from '../signing/signedToken.js'
import { isUsableRecordId } from '../storage/recordIds.js'

/**
 * The product link of a restock e-mail goes through our own `GET /api/r` (docs/dashboard.md
 * "Clicks"), which counts one click per recipient per notice and redirects to the product page:
 * `/api/r?n={noticeId}&r={recipient digest}&u={product slug}&e={expiry, unix s}&sig=…`, where
 * `sig` is the signature of a signed token of those fields (signing/signedToken.ts
 * `signatureFor`, under UNSUBSCRIBE_SECRET). No third party sees the click; the recipient is a
 * keyed digest of the subscription id, never an address.
 */

/** How long a link counts clicks. An older link still leads to the product page. */
export const CLICK_LINK_TTL_MS = 90 * 24 * 60 * 60 * 1000
const RECIPIENT_LENGTH = 22

export interface ClickLink {
  noticeId: string
  subscriptionId: string
  productSlug: string
}

/** How a click link names its recipient: a keyed digest of the subscription id (`r`). */
export function clickRecipient(subscriptionId: string, secret: string): string {
  return keyedDigest(PURPOSES.clickRecipient, secret, subscriptionId, RECIPIENT_LENGTH)
}

/** The tracked product link of one restock e-mail (`now`: when the e-mail is made, ms). */
export function clickUrl(siteUrl: string, link: ClickLink, secret: string, now: number): string {
  const r = clickRecipient(link.subscriptionId, secret)
  const e = Math.floor((now + CLICK_LINK_TTL_MS) / 1000)
  const fields = { n: link.noticeId, r, u: link.productSlug }
  const sig = signatureFor(PURPOSES.clickLink, fields, secret, e * 1000)
  const query = new URLSearchParams({ ...fields, e: String(e), sig })
  return `${siteUrl.replace(/\/+$/, '')}/api/r?${query}`
}

export type ClickCheck =
  | { counts: true; noticeId: string; recipient: string }
  | { counts: false; reason: 'malformed' | 'bad-signature' | 'expired' }

/**
 * Where a click goes: the product's page on the storefront, or the storefront's home for a slug
 * the catalogue lacks.
 */
export function clickTarget(params: URLSearchParams, storefrontUrl: string): string {
  const slug = params.get('u') ?? ''
  return isUsableRecordId(slug) && findProduct(slug)
    ? productUrl(slug, storefrontUrl)
    : `${storefrontUrl.replace(/\/+$/, '')}/`
}

/**
 * Whether a click counts: a signature that matches (constant time) on a link not yet expired.
 * A signature that does not may be one of the link's older form (signing/olderFormats.ts).
 */
export function checkClick(params: URLSearchParams, secret: string, now: number): ClickCheck {
  const [n, r, u, e, sig] = ['n', 'r', 'u', 'e', 'sig'].map((name) => params.get(name) ?? '')
  if (
    !isUsableRecordId(n) ||
    !new RegExp(`^[A-Za-z0-9_-]{${RECIPIENT_LENGTH}}$`).test(r) ||
    !isUsableRecordId(u) ||
    !/^\d{1,12}$/.test(e)
  ) {
    return { counts: false, reason: 'malformed' }
  }
  const claims = { fields: { n, r, u }, expiresAt: Number(e) * 1000 }
  let check = verifySignature(PURPOSES.clickLink, claims, sig, secret, now)
  if (!check.ok && check.reason === 'bad-signature')
    check = verifyOlderClickLink(params, secret, now)
  if (!check.ok)
    return { counts: false, reason: check.reason === 'missing' ? 'malformed' : check.reason }
  return { counts: true, noticeId: n, recipient: r }
}
