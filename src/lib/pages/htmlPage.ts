import type { AppConfig } from '../config.js'
import { escapeHtml } from '../htmlEscape.js'

/**
 * The shell of the small Japanese pages a link in an e-mail opens (unsubscribe, double opt-in
 * confirmation, reservation manage): never cached, no scripts, no referrer, not framed, forms
 * post only to this site. Every page ends with the shop's name, its contact and a link back to
 * its storefront, so a shopper told to ask the shop knows how.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  // why: the token is in the page's URL; no other site may learn it or frame the button
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
}

/** Who runs the shop, as every page shows it (`SHOP_NAME`, `SHOP_CONTACT`, `STOREFRONT_URL`). */
export interface PageShop {
  name: string | null
  contact: string | null
  storefrontUrl: string
}

/** The shop of a page, from the configuration (null before it could be read: no footer). */
export function pageShopOf(
  config: Pick<AppConfig, 'shopName' | 'shopContact' | 'storefrontUrl'> | null,
): PageShop | null {
  if (!config) return null
  return { name: config.shopName, contact: config.shopContact, storefrontUrl: config.storefrontUrl }
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/
const WEB = /^https?:\/\/\S+$/i

/** The contact as a link where it is an address or a web page, else as text. */
function contactHtml(contact: string): string {
  if (EMAIL.test(contact)) {
    return `<a href="mailto:${escapeHtml(contact)}">${escapeHtml(contact)}</a>`
  }
  if (WEB.test(contact)) return `<a href="${escapeHtml(contact)}">${escapeHtml(contact)}</a>`
  return escapeHtml(contact)
}

function footerHtml(shop: PageShop): string {
  const lines = [
    `<p class="shop">${escapeHtml(shop.name ?? 'ショップ')}</p>`,
    ...(shop.contact ? [`<p>お問い合わせ: ${contactHtml(shop.contact)}</p>`] : []),
    `<p><a href="${escapeHtml(`${shop.storefrontUrl.replace(/\/+$/, '')}/`)}">ショップのトップページへ</a></p>`,
  ]
  return `<footer>\n${lines.join('\n')}\n</footer>`
}

/** A page with `title` as heading, `body` (HTML the caller escaped) below it, and the shop's footer. */
export function htmlPage(
  status: number,
  title: string,
  body: string,
  shop: PageShop | null,
): Response {
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(shop?.name ? `${title}｜${shop.name}` : title)}</title>
<style>
body { font-family: sans-serif; line-height: 1.7; color: #222; background: #fff; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }
a { color: #1a4fb4; }
button { font-size: 1rem; padding: 0.6rem 1.4rem; cursor: pointer; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { color: #555; }
dd { margin: 0; }
ul.choices { list-style: none; padding: 0; }
footer { margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid #ccc; font-size: 0.925rem; }
footer p { margin: 0.2rem 0; }
footer .shop { font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
${shop ? footerHtml(shop) : ''}
</body>
</html>
`
  return new Response(html, { status, headers: PAGE_HEADERS })
}

/** The title and the one paragraph of an error page. */
export interface ErrorText {
  title: string
  text: string
}

/** The 400 and 403 of a signed link's page: a garbled link, and one whose signature fails. */
export const LINK_ERROR_TEXTS: Readonly<Record<400 | 403, ErrorText>> = {
  400: {
    title: 'リンクが正しくありません',
    text: 'リンクが途中で切れている可能性があります。メールに記載されたリンクをそのまま開いてください。',
  },
  403: {
    title: 'リンクが無効です',
    text: 'このリンクは確認できませんでした。お届けしたメールに記載のリンクをそのままご利用ください。',
  },
}

const SERVER_ERROR: ErrorText = {
  title: 'エラーが発生しました',
  text: '時間をおいて再度お試しください。',
}

/** The error page for `status` from `texts`; a status not in `texts` reads as a server error. */
export function errorPageOf(
  texts: Readonly<Record<number, ErrorText>>,
  status: number,
  shop: PageShop | null,
): Response {
  const known = texts[status] ?? SERVER_ERROR
  return htmlPage(status, known.title, `<p>${escapeHtml(known.text)}</p>`, shop)
}
