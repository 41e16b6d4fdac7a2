import { escapeHtml } from '../htmlEscape.js'
import { errorPageOf, htmlPage as page, type ErrorText, type PageShop } from '../pages/htmlPage.js'

/** Small Japanese HTML pages of the unsubscribe link (D9). Every inserted text is escaped. */

/**
 * The button that unsubscribes: it POSTs the unsubscribe `token` to the unsubscribe link's own
 * endpoint, which answers the done page (also on the status page, queueStatusPages.ts).
 */
export function unsubscribeButton(token: string): string {
  const action = `/api/notify-unsubscribe?token=${encodeURIComponent(token)}`
  return `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">配信を停止する</button>
</form>`
}

/** GET: asks for confirmation; the button POSTs the same token. Changes nothing. */
export function confirmPage(productTitle: string, token: string, shop: PageShop | null): Response {
  return page(
    200,
    '再入荷通知の配信停止',
    `<p>「${escapeHtml(productTitle)}」の再入荷通知メールの配信を停止します。よろしければ下のボタンを押してください。</p>
${unsubscribeButton(token)}`,
    shop,
  )
}

/** POST done, or GET on a subscription that is already unsubscribed. */
export function donePage(
  productTitle: string,
  alreadyDone: boolean,
  shop: PageShop | null,
): Response {
  const lead = alreadyDone
    ? 'すでに配信停止の手続きが完了しています。'
    : '配信停止の手続きが完了しました。'
  return page(
    200,
    '配信停止が完了しました',
    `<p>${lead}</p>
<p>「${escapeHtml(productTitle)}」の再入荷通知メールは今後お送りしません。</p>`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
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
export function errorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
