import { escapeHtml } from '../htmlEscape.js'
import { errorPageOf, htmlPage, type ErrorText, type PageShop } from '../pages/htmlPage.js'

/**
 * The Japanese pages a LINE sign-up ends on (GET /api/line/callback): whether the shop can
 * message the shopper in LINE (a friend of its official account) or what to do (add it), and the
 * error pages of the login. Every inserted text is escaped.
 */

export interface LineResultPage {
  productTitle: string
  /** False when the shopper already waited for this product. */
  created: boolean
  /** Whether the shopper has the official account as a friend; null: LINE did not say. */
  friend: boolean | null
  /** Starts the login again (its friend screen offers the official account once more). */
  retryUrl: string
  productPageUrl: string
}

export function lineResultPage(page: LineResultPage, shop: PageShop | null): Response {
  const lead = page.created
    ? `「${escapeHtml(page.productTitle)}」の再入荷のお知らせをLINEで受け取る登録をしました。`
    : `「${escapeHtml(page.productTitle)}」の再入荷のお知らせは、すでにLINEで受け取る登録がされています。`
  if (page.friend === true) {
    return htmlPage(
      200,
      'LINEでの登録が完了しました',
      `<p>${lead}</p>
<p>再入荷しましたら、ショップのLINE公式アカウントからお知らせします。</p>
<p>配信を止めたいときは、LINEで公式アカウントをブロックしてください。</p>
<p><a href="${escapeHtml(page.productPageUrl)}">商品ページへ戻る</a></p>`,
      shop,
    )
  }
  return htmlPage(
    200,
    'あと一歩で登録が完了します',
    `<p>${lead}</p>
<p><strong>ただし、ショップのLINE公式アカウントが友だちに追加されていないため、まだLINEでお知らせをお届けできません。</strong></p>
<p>お知らせを受け取るには、公式アカウントを友だちに追加してください。下のリンクからもう一度進むと、友だち追加の画面が表示されます。</p>
<p><a href="${escapeHtml(page.retryUrl)}">LINEで友だち追加して受け取る</a></p>
<p><a href="${escapeHtml(page.productPageUrl)}">商品ページへ戻る</a></p>`,
    shop,
  )
}

/** The shopper stopped at LINE's screen (`error=access_denied` and the like): nothing was stored. */
export function lineCancelledPage(productPageUrl: string | null, shop: PageShop | null): Response {
  return htmlPage(
    200,
    'LINEでの登録を中止しました',
    `<p>LINEでのログインが完了しなかったため、登録はされていません。</p>
${productPageUrl ? `<p><a href="${escapeHtml(productPageUrl)}">商品ページへ戻る</a></p>` : ''}`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
  400: {
    title: 'リンクが正しくありません',
    text: '商品ページの「LINEで受け取る」ボタンからもう一度お進みください。',
  },
  403: {
    title: 'LINEでのログインを確認できませんでした',
    text: 'お手数ですが、商品ページの「LINEで受け取る」ボタンからもう一度お進みください。',
  },
  405: { title: 'この操作はできません', text: '商品ページのボタンからお進みください。' },
  409: {
    title: 'この画面はすでに使われています',
    text: 'ブラウザの「戻る」や再読み込みで同じ画面が開かれました。登録状況を確かめるには、商品ページの「LINEで受け取る」ボタンからもう一度お進みください。',
  },
  410: {
    title: '時間切れになりました',
    text: 'ログインに時間がかかったため、受け付けられませんでした。商品ページの「LINEで受け取る」ボタンからもう一度お進みください。',
  },
  503: {
    title: 'ただいまLINEでの登録を受け付けられません',
    text: '時間をおいて再度お試しいただくか、メールでの登録をご利用ください。',
  },
}

/** An error page of the LINE login for `status`; unknown statuses read as a server error. */
export function lineErrorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
