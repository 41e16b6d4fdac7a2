import { escapeHtml } from '../htmlEscape.js'
import { STATUS_PAGE_TITLE } from '../messages/queuePlaceText.js'
import { htmlPage as page, type PageShop } from '../pages/htmlPage.js'

/** Small Japanese HTML pages of the double opt-in confirmation link. Every inserted text is escaped. */

/** A sign-up the page offers to confirm. */
export interface ConfirmChoice {
  /** `{productSlug}/{id}`: the value its checkbox posts. */
  value: string
  productTitle: string
}

/** The form field of the n-th choice's checkbox, and the field that says the page showed them. */
export const CHOICE_FIELD_PREFIX = 'signup-'
export const CHOICES_SHOWN_FIELD = 'choices'

/**
 * GET: asks the shopper to confirm the address's sign-ups that wait for it, each with a ticked
 * checkbox (a sign-up the shopper did not make can be left out); the button POSTs the same token
 * with the ticked ones. Changes nothing.
 */
export function confirmSignupPage(
  choices: readonly ConfirmChoice[],
  token: string,
  shop: PageShop | null,
): Response {
  const action = `/api/notify-confirm?token=${encodeURIComponent(token)}`
  const items = choices
    .map(
      (choice, index) =>
        `<li><label><input type="checkbox" name="${CHOICE_FIELD_PREFIX}${index}" value="${escapeHtml(choice.value)}" checked> ${escapeHtml(choice.productTitle)}</label></li>`,
    )
    .join('\n')
  const lead =
    choices.length === 1
      ? `「${escapeHtml(choices[0].productTitle)}」の再入荷通知メールの受け取りを確定します。よろしければ下のボタンを押してください。`
      : 'このメールアドレスで確定をお待ちの、次の商品の再入荷通知メールの受け取りを確定します。お心当たりのないものはチェックを外してから、下のボタンを押してください。'
  return page(
    200,
    '再入荷通知の登録確認',
    `<p>${lead}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<input type="hidden" name="${CHOICES_SHOWN_FIELD}" value="1">
<ul class="choices">
${items}
</ul>
<button type="submit">登録を確定する</button>
</form>`,
    shop,
  )
}

/** A confirmed sign-up as the done page lists it. */
export interface ConfirmedSignup {
  productTitle: string
  /** The signed link of its 「入荷待ちの状況」 page (statusLink.ts); null when none can be made. */
  statusUrl: string | null
}

/**
 * POST done, or GET when nothing of the address waits for confirmation any more: the sign-ups,
 * each with the link of its status page (its place in the queue, the unsubscribe button).
 */
export function signupConfirmedPage(
  signups: readonly ConfirmedSignup[],
  alreadyDone: boolean,
  shop: PageShop | null,
): Response {
  const lead = alreadyDone ? 'この登録はすでに確定しています。' : '登録が確定しました。'
  const items = signups
    .map(({ productTitle, statusUrl }) => {
      const link = statusUrl
        ? `（<a href="${escapeHtml(statusUrl)}">${STATUS_PAGE_TITLE}</a>）`
        : ''
      return `<li>${escapeHtml(productTitle)}${link}</li>`
    })
    .join('\n')
  const linked = signups.some((signup) => signup.statusUrl !== null)
  return page(
    200,
    '再入荷通知の登録が確定しました',
    `<p>${lead}</p>
<p>次の商品が再入荷しましたら、メールでお知らせします。</p>
<ul>
${items}
</ul>${linked ? `\n<p>「${STATUS_PAGE_TITLE}」では、入荷待ちの順番の確認や配信の停止ができます。このページのリンクを保存しておくと、いつでも確認できます。</p>` : ''}`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, { title: string; text: string }> = {
  400: {
    title: '確認リンクが正しくありません',
    text: 'リンクが途中で切れている可能性があります。メールに記載されたリンクをそのまま開いてください。',
  },
  403: {
    title: '確認リンクが無効です',
    text: 'このリンクは確認できませんでした。お届けしたメールに記載のリンクをそのままご利用ください。',
  },
  404: {
    title: 'ご登録が見つかりませんでした',
    text: 'このご登録は期限切れなどにより削除されています。お手数ですが、もう一度ご登録ください。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから操作してください。' },
  410: {
    title: '確認リンクの有効期限が切れています',
    text: '確認リンクの有効期限（7日間）が過ぎました。お手数ですが、もう一度ご登録ください。',
  },
  503: {
    title: 'ただいま登録の確定を受け付けられません',
    text: '時間をおいて再度お試しください。解決しない場合はお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function confirmationErrorPage(status: number, shop: PageShop | null): Response {
  const known = ERROR_TEXTS[status] ?? {
    title: 'エラーが発生しました',
    text: '時間をおいて再度お試しください。',
  }
  return page(status, known.title, `<p>${escapeHtml(known.text)}</p>`, shop)
}
