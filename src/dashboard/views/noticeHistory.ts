import { csvFileName, downloadCsv, toCsv, type CsvColumn } from '../csvExport.js'
import { el, replaceChildren } from '../elements.js'
import { serverPager } from '../pager.js'
import { targetTitle } from '../../lib/productCatalogue.js'
import { productFilterOf } from '../recordResources.js'
import { formatTime, noticeStateText } from '../texts.js'
import type { NotificationSummary } from './deliveryProgress.js'
import type { ViewContext } from './viewContext.js'

const PAGE_SIZE = 20

/** Sent e-mails: none for a notice only recorded (no e-mail provider), whatever it marked. */
function sentText(notice: NotificationSummary): string | number {
  return notice.deliveryMode === 'record-only' ? '—' : notice.sentCount
}

/** How the notice was started: by a staff member, or which automatic wave of which rise. */
function triggerText(notice: NotificationSummary): string {
  const { trigger } = notice
  return trigger ? `自動通知・第 ${trigger.wave} 波（在庫 ${trigger.quantity}）` : '手動'
}

const HISTORY_COLUMNS: CsvColumn<NotificationSummary>[] = [
  { header: 'ID', value: (n) => n.id },
  { header: '送信日時', value: (n) => formatTime(n.timestamp) },
  { header: '件名', value: (n) => n.title },
  { header: '商品', value: (n) => targetTitle(n) },
  { header: '対象', value: (n) => n.recipients },
  { header: '送信済み', value: sentText },
  { header: '失敗', value: (n) => n.failedCount },
  { header: '未送信', value: (n) => n.pendingCount },
  { header: '状態', value: noticeStateText },
  { header: '送信のきっかけ', value: triggerText },
]

export interface NoticeHistory {
  element: HTMLElement
  /**
   * Shows the notices of a product filter's value (productOptions: a slug, or `slug/variantId`
   * for one variant's; '' = every product) from the first page.
   */
  show(product: string): void
  /** Reloads the page shown. */
  reload(): void
  /** Redraws the row of `notice` when it is shown (the progress panel's latest answer). */
  update(notice: NotificationSummary): void
}

/** Past restock notices of one product (or all), newest first, paged by the server. */
export function noticeHistory(
  context: ViewContext,
  openProgress: (notificationId: string) => void,
): NoticeHistory {
  let product = ''
  let page = 1
  let shown: NotificationSummary[] = []
  /** The progress panel's latest answer (one panel at a time: the last notice it reported). */
  let watched: NotificationSummary | null = null
  const area = el('div', { class: 'list-area' })
  const csvButton = el('button', { type: 'button' }, ['CSV を書き出す'], {
    click: () => downloadCsv(csvFileName('再入荷メール送信履歴'), toCsv(shown, HISTORY_COLUMNS)),
  })
  const reloadButton = el('button', { type: 'button' }, ['再読み込み'], {
    click: () => void load(),
  })
  const element = el('section', { 'aria-labelledby': 'history-title' }, [
    el('h2', { id: 'history-title' }, ['送信履歴']),
    el('div', { class: 'toolbar' }, [reloadButton, csvButton]),
    area,
  ])

  async function load(): Promise<void> {
    area.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() =>
      context.api.post('adminNotifyHistory', {
        ...productFilterOf(product),
        page,
        pageSize: PAGE_SIZE,
      }),
    )
    // why: the row of the notice the progress panel watches shows the panel's answer, never the
    // list's: a list asked for before or after the panel's last poll would differ from it (D6)
    shown = (answer?.notifications ?? []).map((notice) =>
      watched?.id === notice.id ? { ...watched, failedRecipients: undefined } : notice,
    )
    area.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(area, [])
    if (shown.length === 0) {
      return replaceChildren(area, [el('p', { class: 'empty' }, ['送信履歴はまだありません。'])])
    }
    replaceChildren(area, [
      el('table', { class: 'records history' }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['送信日時', '件名', '商品', '対象', '送信済み', '失敗', '未送信', '状態'].map((h) =>
              el('th', { scope: 'col' }, [h]),
            ),
          ),
        ]),
        el('tbody', {}, shown.map(historyRow)),
      ]),
      serverPager(answer, '送信履歴のページ', area, (to) => {
        page = to
        return load()
      }),
    ])
  }

  function historyRow(notice: NotificationSummary): HTMLTableRowElement {
    const cell = (label: string, children: (Node | string | number | false)[]) =>
      el('td', { 'data-label': label }, children)
    return el('tr', { 'data-id': notice.id }, [
      cell('送信日時', [formatTime(notice.timestamp)]),
      cell('件名', [
        notice.title,
        notice.trigger !== undefined && el('span', { class: 'tag' }, [triggerText(notice)]),
      ]),
      cell('商品', [targetTitle(notice)]),
      cell('対象', [notice.recipients]),
      cell('送信済み', [sentText(notice)]),
      cell('失敗', [notice.failedCount]),
      cell('未送信', [notice.pendingCount]),
      cell('状態', [
        noticeStateText(notice),
        notice.state !== 'complete' &&
          el('button', { type: 'button', class: 'link' }, ['進捗を見る'], {
            click: () => openProgress(notice.id),
          }),
      ]),
    ])
  }

  return {
    element,
    show(value) {
      product = value
      page = 1
      void load()
    },
    reload: () => void load(),
    update(notice) {
      watched = notice
      const index = shown.findIndex((item) => item.id === notice.id)
      if (index < 0) return
      shown[index] = { ...notice, failedRecipients: undefined }
      area.querySelector(`tr[data-id="${CSS.escape(notice.id)}"]`)?.replaceWith(historyRow(notice))
    },
  }
}
