import { escapeHtml } from '../htmlEscape.js'
import { errorPageOf, htmlPage as page, type ErrorText, type PageShop } from '../pages/htmlPage.js'

/**
 * The Japanese pages of the お取り置き link (restock/holdLink.ts). Every inserted text is escaped.
 */

/** What the pages show of a hold. */
export interface HoldView {
  /** The product as the shopper knows it, with the variant: 「美濃焼 マグカップ（藍）」. */
  productTitle: string
  /** When the hold ends, JST text. */
  endsAt: string
  /** The sign-up hears in LINE: the confirmation comes there, not by e-mail. */
  line: boolean
  /** LINE said the shopper does not have the official account as a friend: nothing reaches them. */
  notFriend?: boolean
}

/** What the GET page says of where the confirmation goes. */
function contactText(view: Pick<HoldView, 'line' | 'notFriend'>): string {
  if (!view.line) return 'ご連絡はご登録のメールアドレスにお送りします。'
  return view.notFriend
    ? 'ご連絡はLINEでお送りします。お店のLINE公式アカウントが友だち追加されていないため、このままでは届きません。友だち追加をお願いします。'
    : 'ご連絡はLINEでお送りします。'
}

/** GET: the product, the hold's end and the one button (the name is asked; the contact is known). */
export function holdPage(view: HoldView, token: string, shop: PageShop | null): Response {
  const action = `/reservation/hold?token=${encodeURIComponent(token)}`
  return page(
    200,
    'お取り置き中の商品',
    `<p>「${escapeHtml(view.productTitle)}」を1点、お取り置きしています。</p>
<dl>
<dt>商品</dt><dd>${escapeHtml(view.productTitle)}</dd>
<dt>お取り置き期限</dt><dd>${escapeHtml(view.endsAt)}</dd>
</dl>
<p>期限までにお名前を入力してボタンを押すと、ご予約が確定します。${contactText(view)}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<p><label for="hold-name">お名前</label><br>
<input id="hold-name" name="name" type="text" required maxlength="100" autocomplete="name"></p>
<button type="submit">この商品を予約する</button>
</form>`,
    shop,
  )
}

/** The reservation the hold became (now, or before: the same one). */
export function heldReservedPage(
  view: Pick<HoldView, 'productTitle' | 'line' | 'notFriend'>,
  reservationId: string,
  alreadyReserved: boolean,
  shop: PageShop | null,
): Response {
  const lead = alreadyReserved
    ? 'このお取り置きはすでにご予約済みです。'
    : !view.line
      ? 'ご予約を承りました。確認のメールをお送りしました。'
      : view.notFriend
        ? 'ご予約を承りました。お店のLINE公式アカウントが友だち追加されていないため、確認のメッセージはお送りできません。友だち追加をしていただくと、以後のご連絡がLINEで届きます。'
        : 'ご予約を承りました。確認のメッセージをLINEでお送りしました。'
  return page(
    200,
    'ご予約を承りました',
    `<p>${lead}</p>
<dl>
<dt>商品</dt><dd>${escapeHtml(view.productTitle)}</dd>
<dt>予約番号</dt><dd>${escapeHtml(reservationId)}</dd>
</dl>
<p>お店からのご連絡をお待ちください。</p>`,
    shop,
  )
}

/** The hold ended: it says so and offers to sign up again on the product's page. */
export function holdEndedPage(
  view: Pick<HoldView, 'productTitle'> | null,
  productUrl: string | null,
  shop: PageShop | null,
): Response {
  const what = view ? `「${escapeHtml(view.productTitle)}」の` : ''
  const again = productUrl
    ? `<p><a href="${escapeHtml(productUrl)}">商品ページで再入荷のお知らせにもう一度登録する</a></p>`
    : '<p>再入荷のお知らせが必要な場合は、商品ページからもう一度ご登録ください。</p>'
  return page(
    410,
    'お取り置きの期限が過ぎました',
    `<p>${what}お取り置きは終了しました。お取り置きしていた商品は、次にお待ちの方へご案内しています。</p>
${again}`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
  400: {
    title: '入力内容をご確認ください',
    text: 'リンクが途中で切れているか、お名前が入力されていません。メールに記載されたリンクをそのまま開いて、もう一度お試しください。',
  },
  403: {
    title: 'リンクが無効です',
    text: 'このリンクは確認できませんでした。お届けしたメールに記載のリンクをそのままご利用ください。',
  },
  404: {
    title: 'お取り置きが見つかりませんでした',
    text: 'このお取り置きはすでに終了しています。再入荷のお知らせが必要な場合は、商品ページからもう一度ご登録ください。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから操作してください。' },
  410: {
    title: 'お取り置きの期限が過ぎました',
    text: 'お取り置きは終了しました。再入荷のお知らせが必要な場合は、商品ページからもう一度ご登録ください。',
  },
  503: {
    title: 'ただいま受け付けられません',
    text: '時間をおいて再度お試しください。解決しない場合はお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function holdErrorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
