import { createHmac, timingSafeEqual } from 'node:crypto'
import { findProduct, productUrl } from '../productCatalogue.js'
import { isUsableRecordId } from '../storage/recordIds.js'

/**
 * The product link of a restock e-mail goes through our own `GET /api/r` (docs/dashboard.md
 * "Clicks"), which counts one click per recipient per notice and redirects to the product page:
 * `/api/r?n={noticeId}&r={recipient digest}&u={product slug}&e={expiry, unix s}&sig=…`, signed with
 * HMAC-SHA256(UNSUBSCRIBE_SECRET). No third party sees the click; the recipient is a digest of
 * the subscription id, never an address.
 */

/** How long a link counts clicks. An older link still leads to the product page. */
export const CLICK_LINK_TTL_MS = 90 * 24 * 60 * 60 * 1000
const PURPOSE = 'restock-click/v1'
const SIGNATURE_LENGTH = 43 // base64url of 32 bytes

export interface ClickLink {
  noticeId: string
  subscriptionId: string
  productSlug: string
}

const hmac = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text).digest('base64url')

/** The recipient as the link names it: a keyed digest of the subscription id (22 characters). */
function recipientDigest(subscriptionId: string, secret: string): string {
  return hmac(secret, `${PURPOSE}/recipient\n${subscriptionId}`).slice(0, 22)
}

function signature(n: string, r: string, u: string, e: string, secret: string): string {
  return hmac(secret, `${PURPOSE}\n${n}\n${r}\n${u}\n${e}`)
}

/** The tracked product link of one restock e-mail (`now`: when the e-mail is made). */
export function clickUrl(siteUrl: string, link: ClickLink, secret: string, now: number): string {
  const r = recipientDigest(link.subscriptionId, secret)
  const e = String(Math.floor((now + CLICK_LINK_TTL_MS) / 1000))
  const sig = signature(link.noticeId, r, link.productSlug, e, secret)
  const query = new URLSearchParams({ n: link.noticeId, r, u: link.productSlug, e, sig })
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

/** Whether a click counts: a signature that matches (constant time) on a link not yet expired. */
export function checkClick(params: URLSearchParams, secret: string, now: number): ClickCheck {
  const [n, r, u, e, sig] = ['n', 'r', 'u', 'e', 'sig'].map((name) => params.get(name) ?? '')
  if (
    !isUsableRecordId(n) ||
    !/^[A-Za-z0-9_-]{22}$/.test(r) ||
    !isUsableRecordId(u) ||
    !/^\d{1,12}$/.test(e) ||
    !new RegExp(`^[A-Za-z0-9_-]{${SIGNATURE_LENGTH}}$`).test(sig)
  ) {
    return { counts: false, reason: 'malformed' }
  }
  const expected = Buffer.from(signature(n, r, u, e, secret))
  if (!timingSafeEqual(expected, Buffer.from(sig))) {
    return { counts: false, reason: 'bad-signature' }
  }
  if (now >= Number(e) * 1000) return { counts: false, reason: 'expired' }
  return { counts: true, noticeId: n, recipient: r }
}
