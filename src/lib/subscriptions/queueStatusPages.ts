import { escapeHtml } from '../htmlEscape.js'
import {
  errorPageOf,
  htmlPage as page,
  LINK_ERROR_TEXTS,
  type ErrorText,
  type PageShop,
} from '../pages/htmlPage.js'
import type { UnsubscribeReason } from '../storage/records.js'
import { placeText, STATUS_PAGE_TITLE, type QueuePlace } from '../messages/queuePlaceText.js'
import { unsubscribeButton } from './unsubscribePages.js'

/**
 * The 「入荷待ちの状況」 page of a restock sign-up (`/notify/status`): the product, when it was
 * signed up, its place in the queue or why it has none, and the unsubscribe button. It shows the
 * one sign-up its link names and nobody else's. Every inserted text is escaped.
 */

/** Where a sign-up stands. */
export type QueueState =
  | { kind: 'waiting'; place: QueuePlace }
  /** Pending, but double opt-in waits for the shopper to confirm it. */
  | { kind: 'unconfirmed' }
  /** Pending, but no restock e-mail may reach it now (opted out, address suppressed). */
  | { kind: 'paused' }
  /** The restock e-mail was sent (`notifiedAt`: when, null when unknown). */
  | { kind: 'notified'; notifiedAt: string | null }
  /** Unsubscribed (by the shopper or staff, or for `expired` / `purchased`) or archived. */
  | { kind: 'ended'; reason: UnsubscribeReason | 'unsubscribed' | 'archived' }

/** What the page shows. */
export interface QueueStatusView {
  /** The product, naming the variant waited for (`targetTitle`). */
  productTitle: string
  /** When it was signed up, in JST (`formatJst`). */
  signedUpAt: string
  state: QueueState
  /**
   * A unit held for this sign-up (お取り置き): the hold's end, in JST. Null while no hold is open
   * for it.
   */
  hold: { endsAt: string } | null
  /** The unsubscribe link's token for the button; null when there is nothing left to stop. */
  unsubscribeToken: string | null
}

const STATE_ROW: Record<QueueState['kind'], string> = {
  waiting: '入荷待ち',
  unconfirmed: '登録の確定待ち',
  paused: 'お知らせを停止中',
  notified: 'お知らせ済み',
  ended: '終了',
}

const ENDED_TEXT: Record<Extract<QueueState, { kind: 'ended' }>['reason'], string> = {
  unsubscribed: '配信停止の手続きが済んでいるため、このご登録の入荷待ちは終了しています。',
  expired:
    'ご登録の有効期限が過ぎたため、このご登録の入荷待ちは終了しています。再入荷のお知らせが必要な場合は、お手数ですが商品ページからもう一度ご登録ください。',
  purchased: 'この商品をご購入いただいたため、このご登録の入荷待ちは終了しています。',
  archived: 'このご登録の入荷待ちは終了しています。',
}

function stateText(state: QueueState): string {
  switch (state.kind) {
    case 'waiting':
      return '入荷したら、ご登録の早い方から順に、入荷した数に応じてメールでお知らせします。入荷した数によっては、順番が来る前に売り切れることがあります。'
    case 'unconfirmed':
      return 'ご登録はまだ確定していません。お送りした確認メールのリンクから登録を確定すると、入荷待ちの順番に加わります。'
    case 'paused':
      return '現在、このご登録には再入荷のお知らせをお送りできないため、入荷待ちの順番に含まれていません。お手数ですが、ショップまでお問い合わせください。'
    case 'notified':
      return state.notifiedAt
        ? `再入荷のお知らせを ${state.notifiedAt} にお送りしました。このご登録の入荷待ちは終了しています。`
        : '再入荷のお知らせをお送りしました。このご登録の入荷待ちは終了しています。'
    case 'ended':
      return ENDED_TEXT[state.reason]
  }
}

/** The status page. Changes nothing. */
export function queueStatusPage(view: QueueStatusView, shop: PageShop | null): Response {
  const { state } = view
  const row =
    state.kind === 'waiting'
      ? `<dt>順番</dt><dd>${escapeHtml(placeText(state.place))}</dd>`
      : `<dt>状況</dt><dd>${escapeHtml(STATE_ROW[state.kind])}</dd>`
  const hold = view.hold
    ? `\n<p class="hold">${escapeHtml(view.hold.endsAt)} までお取り置きしています。</p>`
    : ''
  const unsubscribe = view.unsubscribeToken
    ? `\n<p>再入荷のお知らせが不要になった場合は、下のボタンから配信を停止できます。</p>\n${unsubscribeButton(view.unsubscribeToken)}`
    : ''
  return page(
    200,
    STATUS_PAGE_TITLE,
    `<dl>
<dt>商品</dt><dd>${escapeHtml(view.productTitle)}</dd>
<dt>ご登録日時</dt><dd>${escapeHtml(view.signedUpAt)}</dd>
${row}
</dl>
<p>${escapeHtml(stateText(state))}</p>${hold}${unsubscribe}`,
    shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
  ...LINK_ERROR_TEXTS,
  404: {
    title: 'ご登録が見つかりませんでした',
    text: 'このご登録はすでに削除されています。再入荷のお知らせが必要な場合は、お手数ですが商品ページからもう一度ご登録ください。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから開いてください。' },
  410: {
    title: 'リンクの有効期限が切れています',
    text: '入荷待ちの状況のリンクは、お送りしてから1年間ご利用いただけます。ご登録の状況は、お手数ですがショップまでお問い合わせください。',
  },
  503: {
    title: 'ただいま表示できません',
    text: '時間をおいて再度お試しください。解決しない場合はお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function queueStatusErrorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
