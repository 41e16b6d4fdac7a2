import { escapeHtml } from '../htmlEscape.js'

/**
 * The shell of the small Japanese pages a link in an e-mail opens (unsubscribe, reservation
 * manage): never cached, no scripts, no referrer, not framed, forms post only to this site.
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

/** A page with `title` as heading and `body` (HTML the caller escaped) below it. */
export function htmlPage(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: sans-serif; line-height: 1.7; color: #222; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; }
button { font-size: 1rem; padding: 0.6rem 1.4rem; cursor: pointer; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { color: #555; }
dd { margin: 0; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
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

const SERVER_ERROR: ErrorText = {
  title: 'エラーが発生しました',
  text: '時間をおいて再度お試しください。',
}

/** The error page for `status` from `texts`; a status not in `texts` reads as a server error. */
export function errorPageOf(texts: Readonly<Record<number, ErrorText>>, status: number): Response {
  const known = texts[status] ?? SERVER_ERROR
  return htmlPage(status, known.title, `<p>${escapeHtml(known.text)}</p>`)
}
