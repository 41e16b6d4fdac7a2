import { el, replaceChildren } from '../elements.js'
import { DELIVERY_STATE_LABELS, noticeStateText } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

/** One notice of the history answer, as its response schema describes it. */
export type NotificationSummary = RouteAnswer<'adminNotifyHistory'>['notifications'][number]

/**
 * How often a running delivery is asked for: every 2 s while it moves (a poll reads one progress
 * blob, whatever the delivery's size), half as often again after each answer that shows no
 * change, at most every 15 s (a delivery waiting for its next invocation or its resume).
 */
const POLL_MS = 2000
const POLL_BACKOFF = 1.5
const POLL_MAX_MS = 15_000
/** Wait after a failed poll before asking again. */
const RETRY_MS = 5000

/**
 * A live view of one delivery: sent, failed and still pending, polled until it is complete (or
 * until the panel leaves the page). `onUpdate` gets every answer; `onComplete` runs once when it
 * completes.
 */
export function deliveryProgress(
  context: ViewContext,
  notificationId: string,
  onComplete: () => void,
  onUpdate: (notice: NotificationSummary) => void = () => {},
): HTMLElement {
  const body = el('div', { 'aria-live': 'polite' }, ['配信状況を確認しています…'])
  const panel = el('section', { class: 'card progress', 'aria-labelledby': 'progress-title' }, [
    el('h3', { id: 'progress-title' }, ['配信状況']),
    body,
  ])

  let waitMs = POLL_MS
  let lastSettled = -1

  async function poll(): Promise<void> {
    const answer = await context.attempt(() =>
      context.api.post('adminNotifyHistory', { notificationId }),
    )
    if (!answer) {
      // why: a passing network error must not end the watch; the error itself is shown above
      if (panel.isConnected) setTimeout(() => void poll(), RETRY_MS)
      return
    }
    const notice = answer.notifications[0]
    if (!notice) return replaceChildren(body, ['この通知は見つかりません。'])
    render(notice)
    // why: the history row of this notice shows the same counts as the panel, not older ones
    onUpdate(notice)
    if (notice.state === 'complete') return onComplete()
    const settled = notice.sentCount + notice.failedCount
    waitMs = settled === lastSettled ? Math.min(waitMs * POLL_BACKOFF, POLL_MAX_MS) : POLL_MS
    lastSettled = settled
    if (panel.isConnected) setTimeout(() => void poll(), waitMs)
  }

  function render(notice: NotificationSummary): void {
    const settled = notice.sentCount + notice.failedCount
    const done = notice.state === 'complete'
    const recordOnly = notice.deliveryMode === 'record-only'
    replaceChildren(body, [
      el('p', { class: 'progress-title' }, [`「${notice.title}」`]),
      el('progress', {
        max: Math.max(notice.recipients, 1),
        value: done ? Math.max(notice.recipients, 1) : settled,
        'aria-label': '配信の進み具合',
      }),
      el('dl', { class: 'progress-counts' }, [
        el('dt', {}, ['状態']),
        el('dd', { 'data-field': 'state' }, [
          recordOnly
            ? noticeStateText(notice)
            : done
              ? '配信完了'
              : DELIVERY_STATE_LABELS[notice.state],
        ]),
        el('dt', {}, ['対象']),
        el('dd', { 'data-field': 'recipients' }, [`${notice.recipients} 人`]),
        el('dt', {}, ['送信済み']),
        el('dd', { 'data-field': 'sent' }, [recordOnly ? '—' : `${notice.sentCount} 人`]),
        el('dt', {}, ['失敗']),
        el('dd', { 'data-field': 'failed' }, [`${notice.failedCount} 人`]),
        el('dt', {}, ['未送信']),
        el('dd', { 'data-field': 'pending' }, [`${notice.pendingCount} 人`]),
      ]),
      recordOnly &&
        el('p', { class: 'hint' }, [
          done
            ? `メール送信サービスが未設定のため、メールは送らず記録のみ行いました（${notice.recipients} 人を通知済みにしました）。`
            : // why: its e-mail recipients are counted as settled from the start, its LINE ones as pushed
              `メール送信サービスが未設定のため、メールは送らず記録のみ行いました。LINE で受け取る方へ送っています（残り ${notice.pendingCount} 人）。`,
        ]),
      (notice.failedRecipients?.length ?? 0) > 0 &&
        el('details', {}, [
          el('summary', {}, ['送信に失敗した宛先']),
          el(
            'ul',
            {},
            (notice.failedRecipients ?? []).map((item) =>
              // why: a LINE recipient has no address; its error names its sign-up
              el('li', {}, [`${item.email || 'LINE'}: ${item.error}`]),
            ),
          ),
        ]),
    ])
  }

  void poll()
  return panel
}
