import type { NotWaitingReason } from '../lib/compliance/waitingRule.js'
import type { RouteAnswer } from '../lib/routes.js'

import {
  formatTime,
  RESERVATION_STATUS_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
  UNSUBSCRIBE_REASON_LABELS,
} from '../lib/admin/recordCsv.js'

// why: the status words and times are the CSV's too, written once in src/lib (recordCsv.ts)
export {
  formatTime,
  RESERVATION_STATUS_LABELS,
  SUBSCRIPTION_STATUS_LABELS,
  UNSUBSCRIBE_REASON_LABELS,
}

/** Every Japanese word the dashboard shows for a stored value, and its error texts. */

type DeliveryState = RouteAnswer<'adminNotifyHistory'>['notifications'][number]['state']

// why: one label per state the history answer can carry, so a new state cannot go unlabelled
export const DELIVERY_STATE_LABELS: Record<DeliveryState, string> = {
  queued: '待機中',
  delivering: '配信中',
  complete: '完了',
}

/** A restock notice sent without an e-mail provider: recorded, nobody e-mailed (§4.8). */
export const RECORD_ONLY = '記録のみ（メール未送信）'

/**
 * A notice sent without an e-mail provider while its LINE recipients are pushed: the e-mail
 * recipients are recorded, the LINE pushes wait or run.
 */
export const RECORD_ONLY_LINE_STATE: Record<'queued' | 'delivering', string> = {
  queued: 'LINE 送信待ち（メールは記録のみ）',
  delivering: 'LINE 送信中（メールは記録のみ）',
}

/** The state of a restock notice as staff read it (history list and progress panel). */
export function noticeStateText(
  notice: Pick<
    RouteAnswer<'adminNotifyHistory'>['notifications'][number],
    'deliveryMode' | 'state' | 'status'
  >,
): string {
  if (notice.deliveryMode === 'record-only') {
    return notice.state === 'complete' ? RECORD_ONLY : RECORD_ONLY_LINE_STATE[notice.state]
  }
  if (notice.state !== 'complete') return DELIVERY_STATE_LABELS[notice.state]
  return notice.status === 'failed' ? '完了（送信失敗）' : '完了'
}

/** Why a pending sign-up is not counted as waiting, as staff read it. */
export const NOT_WAITING_LABELS: Record<NotWaitingReason, string> = {
  optedOut: '配信停止後に再登録なし',
  unconfirmed: '未確認',
  suppressed: '配信できないアドレス',
}

/**
 * 「対象外 2 人: 配信停止後に再登録なし 1 人、未確認 1 人」, or null when every pending sign-up is
 * waiting.
 */
export function notWaitingText(notWaiting: Record<NotWaitingReason, number>): string | null {
  const parts = (Object.keys(NOT_WAITING_LABELS) as NotWaitingReason[])
    .filter((reason) => notWaiting[reason] > 0)
    .map((reason) => `${NOT_WAITING_LABELS[reason]} ${notWaiting[reason]} 人`)
  if (parts.length === 0) return null
  const total = Object.values(notWaiting).reduce((sum, count) => sum + count, 0)
  return `対象外 ${total} 人: ${parts.join('、')}`
}

type StartedWave = NonNullable<RouteAnswer<'adminStock'>['updated'][number]['wave']>

/** What the automatic wave a stock change started did, in one or two sentences. */
export function startedWaveText(wave: StartedWave): string {
  if (wave.state === 'nobody-waiting') return '自動通知の対象者がいないため、配信はありません。'
  if (wave.state === 'later') {
    return '自動通知はまだ配信されていません。ほかの送信が終わりしだい、定期処理が配信します。'
  }
  if (wave.state === 'quiet-hours') {
    return `夜間のため、自動通知は ${formatTime(wave.sendsAt)} から配信します（夜間に届いた順）。`
  }
  const done =
    wave.deliveryMode === 'record-only'
      ? `自動通知で ${wave.recipients} 人を通知済みにしました（記録のみ・メール未送信）。`
      : `自動通知で ${wave.recipients} 人に再入荷メールを送っています。`
  return `${done}次の配信は ${formatTime(wave.nextAt)} の予定です（在庫がある間）。`
}

const KNOWN_ERRORS: Record<string, string> = {
  Unauthorized: 'トークンが正しくありません。',
  'Reservation not found': '予約が見つかりません（削除された可能性があります）。',
  'Subscription not found': '購読が見つかりません（削除された可能性があります）。',
  'A send for this product is already in progress':
    'この商品の別の送信（自動通知を含む）が処理中です。少し待ってからもう一度お試しください。',
  'Product not found': '商品が見つかりません。',
  'emailTitle is required': '自動通知をオンにするには件名が必要です。',
  'emailBody is required': '自動通知をオンにするには本文が必要です。',
  'emailTitle must be a single line (no line breaks or control characters)':
    '件名は 1 行で入力してください（改行は使えません）。',
  'perUnit must be an integer from 1 to 100': '通知人数は 1〜100 の整数で入力してください。',
  'intervalMinutes must be an integer from 10 to 10080':
    '配信間隔は 10〜10080 分の整数で入力してください。',
  'Each item needs a productSlug and a quantity (an integer, 0 or more)':
    '在庫数は 0 以上の整数で入力してください。',
  'No pending subscribers found for this product':
    'この商品には送信対象（未通知の購読者）がいません。',
  'Email delivery is not configured: UNSUBSCRIBE_SECRET is not set':
    'メール配信の設定が不足しています（配信停止リンクの署名用の鍵が未設定です）。サイトの管理者に連絡してください。',
  'Email delivery could not be started; no e-mail was sent':
    '配信を開始できませんでした。メールは送信されていません。',
  'LINE delivery is not configured: UNSUBSCRIBE_SECRET is not set':
    'LINE 配信の設定が不足しています（リンクの署名用の鍵が未設定です）。サイトの管理者に連絡してください。',
  'LINE delivery could not be started; no LINE message was sent':
    'LINE の配信を開始できませんでした。LINE のメッセージは送信されず、誰も通知済みにしていません。',
  'Suppression not found': 'この配信停止はすでに解除されています。',
  'not-allowed': 'サインイン中のトークンには、この操作の権限がありません。',
  network: 'サーバーに接続できませんでした。通信状況を確認してください。',
}

/** The Japanese text for a server `error`; unknown texts are shown as they are, with the status. */
export function japaneseError(message: string, status: number): string {
  const known = KNOWN_ERRORS[message]
  if (known) return known
  const transition = /^Invalid status transition: (.+) -> (.+)$/.exec(message)
  if (transition) {
    const from = RESERVATION_STATUS_LABELS[transition[1]] ?? transition[1]
    const to = RESERVATION_STATUS_LABELS[transition[2]] ?? transition[2]
    return `現在のステータス「${from}」から「${to}」へは変更できません。`
  }
  if (/^Sender details are not configured/.test(message)) {
    return 'メールの送信者情報（ショップ名・所在地・お問い合わせ先）が設定されていないため送信できません。サイトの設定を確認してください。'
  }
  if (/^Failed to /.test(message)) return '保存に失敗しました。もう一度お試しください。'
  return `エラーが発生しました（${status}）: ${message}`
}

/** The month's LINE messages as the stock list answers them (null: LINE not configured). */
export interface LineQuotaText {
  limit: number | null
  usage: number
  remaining: number | null
}

/** 「LINE の今月の送信数: 120 / 500 通（残り 380 通）」. */
export function lineQuotaText(quota: LineQuotaText): string {
  return quota.limit === null
    ? `LINE の今月の送信数: ${quota.usage} 通（上限なし）`
    : `LINE の今月の送信数: ${quota.usage} / ${quota.limit} 通（残り ${quota.remaining ?? 0} 通）`
}

/**
 * The warning before a send whose LINE recipients pass what is left of the month, or null:
 * LINE refuses the pushes past it, and they are recorded as failed.
 */
export function lineQuotaWarning(
  lineRecipients: number,
  quota: LineQuotaText | null,
): string | null {
  if (!quota || quota.remaining === null || lineRecipients <= quota.remaining) return null
  return `LINE で受け取る ${lineRecipients} 人のうち、今月の残り送信数（${quota.remaining} 通）を超える ${lineRecipients - quota.remaining} 人には送れず、失敗として記録されます。`
}
