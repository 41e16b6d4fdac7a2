import { escapeHtml } from '../htmlEscape.js'
import { errorPageOf, htmlPage as page, type ErrorText, type PageShop } from '../pages/htmlPage.js'

/**
 * Small Japanese HTML pages of the keep link (「引き続き入荷のお知らせを希望されますか」). Every
 * inserted text is escaped.
 */

/** GET: the question again, with the one button that POSTs the same token. Changes nothing. */
export function keepPage(
  productTitle: string,
  endsAt: string,
  token: string,
  shop: PageShop | null,
): Response {
  const action = `/api/notify-keep?token=${encodeURIComponent(token)}`
  return page(
    200,
    '引き続き入荷のお知らせを希望されますか',
    `<p>「${escapeHtml(productTitle)}」の再入荷のお知らせを引き続き希望される場合は、下のボタンを押してください。</p>
<p>${escapeHtml(endsAt)} までにボタンが押されない場合、このご登録は終了します。</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">引き続き希望する</button>
</form>`,
    shop,
  )
}

/** POST done (or done before): the sign-up waits on. */
export function keptPage(productTitle: string, alreadyKept: boolean, shop: PageShop | null) {
  const lead = alreadyKept
    ? 'このご登録はすでに継続の手続きが済んでいます。'
    : 'ご登録を継続しました。'
  return page(
    200,
    'ご登録を継続しました',
    `<p>${lead}</p>
<p>「${escapeHtml(productTitle)}」が再入荷しましたら、メールでお知らせします。</p>`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
  400: {
    title: 'リンクが正しくありません',
    text: 'リンクが途中で切れている可能性があります。メールに記載されたリンクをそのまま開いてください。',
  },
  403: {
    title: 'リンクが無効です',
    text: 'このリンクは確認できませんでした。お届けしたメールに記載のリンクをそのままご利用ください。',
  },
  404: {
    title: 'ご登録が見つかりませんでした',
    text: 'このご登録はすでに削除されています。お手数ですが、商品ページからもう一度ご登録ください。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから操作してください。' },
  410: {
    title: 'このご登録は終了しています',
    text: 'お返事の期限が過ぎたか、ご登録がすでに終了しています。再入荷のお知らせが必要な場合は、お手数ですが商品ページからもう一度ご登録ください。',
  },
  503: {
    title: 'ただいま受け付けられません',
    text: '時間をおいて再度お試しください。解決しない場合はお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function keepErrorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
