import { escapeHtml } from '../htmlEscape.js'

/** Small Japanese HTML pages of the unsubscribe link (D9). Every inserted text is escaped. */

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  // why: the token is in the page's URL; no other site may learn it or frame the button
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
}

function page(status: number, title: string, body: string): Response {
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
  return new Response(html, { status, headers: SECURITY_HEADERS })
}

/** GET: asks for confirmation; the button POSTs the same token. Changes nothing. */
export function confirmPage(productTitle: string, token: string): Response {
  const action = `/api/notify-unsubscribe?token=${encodeURIComponent(token)}`
  return page(
    200,
    '再入荷通知の配信停止',
    `<p>「${escapeHtml(productTitle)}」の再入荷通知メールの配信を停止します。よろしければ下のボタンを押してください。</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">配信を停止する</button>
</form>`,
  )
}

/** POST done, or GET on a subscription that is already unsubscribed. */
export function donePage(productTitle: string, alreadyDone = false): Response {
  const lead = alreadyDone
    ? 'すでに配信停止の手続きが完了しています。'
    : '配信停止の手続きが完了しました。'
  return page(
    200,
    '配信停止が完了しました',
    `<p>${lead}</p>
<p>「${escapeHtml(productTitle)}」の再入荷通知メールは今後お送りしません。</p>`,
  )
}

const ERROR_TEXTS: Record<number, { title: string; text: string }> = {
  400: {
    title: '配信停止リンクが正しくありません',
    text: 'リンクが途中で切れている可能性があります。メールに記載されたリンクをそのまま開いてください。',
  },
  403: {
    title: '配信停止リンクが無効です',
    text: 'このリンクは確認できませんでした。お届けしたメールに記載のリンクをそのままご利用ください。',
  },
  404: {
    title: 'ご登録が見つかりませんでした',
    text: 'この再入荷通知のご登録はすでに削除されています。メールが今後届くことはありません。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから操作してください。' },
  503: {
    title: 'ただいま配信停止を受け付けられません',
    text: '時間をおいて再度お試しください。解決しない場合はお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function errorPage(status: number): Response {
  const known = ERROR_TEXTS[status] ?? {
    title: 'エラーが発生しました',
    text: '時間をおいて再度お試しください。',
  }
  return page(status, known.title, `<p>${escapeHtml(known.text)}</p>`)
}
