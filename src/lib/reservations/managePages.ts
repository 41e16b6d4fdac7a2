import { escapeHtml } from '../htmlEscape.js'
import { formatJst, formatReleaseDate } from '../notifiers/jstTime.js'
import { errorPageOf, htmlPage, type ErrorText, type PageShop } from '../pages/htmlPage.js'
import type { Reservation } from '../storage/records.js'

/** The Japanese pages of `/reservation/manage`. Every inserted text is escaped. */

const STATUS_TEXTS: Record<string, string> = {
  pending: '受付済み（確認中）',
  confirmed: '予約確定',
  fulfilled: 'お渡し準備完了',
  cancelled: 'キャンセル済み',
}

/** What a manage page shows of a reservation. */
export interface ManageView {
  reservation: Reservation
  productTitle: string
  releaseDate: string | null
  /** The shop the page's footer names. */
  shop: PageShop | null
}

function details({ reservation, productTitle, releaseDate }: ManageView): string {
  const rows: [string, string][] = [
    ['予約番号', reservation.id],
    ['商品', productTitle],
    ['数量', String(reservation.quantity ?? 1)],
    ...(releaseDate
      ? ([['発売予定日', formatReleaseDate(releaseDate)]] as [string, string][])
      : []),
    ['受付日時', formatJst(reservation.createdAt)],
    ['状態', STATUS_TEXTS[reservation.status] ?? reservation.status],
  ]
  const items = rows
    .map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('\n')
  return `<dl>\n${items}\n</dl>`
}

/** Whether the customer may cancel online. */
export function isCancellableOnline(status: string): boolean {
  return status === 'pending' || status === 'confirmed'
}

/** GET: the reservation, and a button that POSTs the same token when it can be cancelled. */
export function reservationPage(view: ManageView, token: string): Response {
  const status = view.reservation.status
  let action: string
  if (isCancellableOnline(status)) {
    const target = `/reservation/manage?token=${encodeURIComponent(token)}`
    action = `<p>ご予約をキャンセルする場合は、下のボタンを押してください。キャンセルは取り消せません。</p>
<form method="post" action="${escapeHtml(target)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">予約をキャンセルする</button>
</form>`
  } else if (status === 'cancelled') {
    action = '<p>このご予約はキャンセル済みです。</p>'
  } else {
    action =
      '<p>このご予約はすでにお渡しの準備が整っているため、オンラインではキャンセルできません。ショップまでお問い合わせください。</p>'
  }
  return htmlPage(200, 'ご予約内容の確認', `${details(view)}\n${action}`, view.shop)
}

/** POST done (or the reservation was already cancelled). */
export function cancelledPage(view: ManageView, already: boolean): Response {
  const lead = already
    ? 'このご予約はすでにキャンセルされています。'
    : 'ご予約をキャンセルしました。ご利用ありがとうございました。'
  return htmlPage(
    200,
    'ご予約のキャンセル',
    `<p>${lead}</p>\n${already ? '' : '<p>キャンセルの受付メールをお送りしました。</p>\n'}${details(view)}`,
    view.shop,
  )
}

/** POST on a reservation that can no longer be cancelled online (fulfilled). */
export function notCancellablePage(view: ManageView): Response {
  return htmlPage(
    409,
    'オンラインではキャンセルできません',
    `<p>このご予約はすでにお渡しの準備が整っているため、オンラインではキャンセルできません。ショップまでお問い合わせください。</p>\n${details(view)}`,
    view.shop,
  )
}

const ERROR_TEXTS: Record<number, ErrorText> = {
  400: {
    title: 'リンクが正しくありません',
    text: 'リンクが途中で切れている可能性があります。メールに記載されたリンクをそのまま開いてください。',
  },
  403: {
    title: 'このリンクは使用できません',
    text: 'リンクを確認できなかったか、有効期限が切れています。予約番号を添えてショップまでお問い合わせください。',
  },
  404: {
    title: 'ご予約が見つかりませんでした',
    text: 'このご予約はすでに削除されています。ご不明な点はショップまでお問い合わせください。',
  },
  405: { title: 'この操作はできません', text: 'メールに記載のリンクから操作してください。' },
  409: {
    title: 'このリンクはすでに使用されました',
    text: 'このリンクでのお手続きは完了しています。ご不明な点は予約番号を添えてショップまでお問い合わせください。',
  },
  503: {
    title: 'ただいまご予約の確認ができません',
    text: '時間をおいて再度お試しください。解決しない場合はショップまでお問い合わせください。',
  },
}

/** An error page for `status`; unknown statuses read as a server error. */
export function manageErrorPage(status: number, shop: PageShop | null): Response {
  return errorPageOf(ERROR_TEXTS, status, shop)
}
