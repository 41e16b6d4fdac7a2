import { csvFileName, downloadCsv, toCsv, type CsvColumn } from '../csvExport.js'
import { el } from '../elements.js'
import { formatTime, RECORD_ONLY } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'

type Notice = RouteAnswer<'adminOverview'>['notices'][number]

/** 12% of `total`, or — when nothing was e-mailed. */
function percent(part: number, total: number): string {
  return total === 0 ? '—' : `${Math.round((part / total) * 1000) / 10}%`
}

/** `¥13,200`, each currency the orders gave (`—` when none gave a total). */
function revenueText(revenue: Notice['revenue']): string {
  const amounts = Object.entries(revenue).map(([currency, amount]) =>
    new Intl.NumberFormat('ja-JP', { style: 'currency', currency }).format(amount),
  )
  return amounts.length === 0 ? '—' : amounts.join(' / ')
}

// why: a notice recorded without an e-mail provider reached nobody
const recordOnly = (notice: Notice) => notice.deliveryMode === 'record-only'

/** The columns of the table and of its CSV, written once. */
const COLUMNS: (CsvColumn<Notice> & { className: string })[] = [
  { header: '送信日時', className: 'time', value: (n) => formatTime(n.timestamp) },
  { header: '商品', className: 'product', value: (n) => n.title },
  { header: '送信', className: 'number', value: (n) => (recordOnly(n) ? RECORD_ONLY : n.sent) },
  { header: '失敗', className: 'number', value: (n) => n.failed },
  { header: 'クリック', className: 'number', value: (n) => n.clicks },
  {
    header: 'クリック率',
    className: 'number',
    value: (n) => (recordOnly(n) ? '—' : percent(n.clicks, n.sent)),
  },
  { header: '注文', className: 'number', value: (n) => n.orders },
  { header: 'クリック後の注文', className: 'number', value: (n) => n.ordersAfterClick },
  { header: '数量', className: 'number', value: (n) => n.units },
  { header: '売上', className: 'number', value: (n) => revenueText(n.revenue) },
  {
    header: '購入率',
    className: 'number',
    value: (n) => (n.conversionRate === null ? '—' : percent(n.conversionRate * 10_000, 10_000)),
  },
]

/**
 * Each restock notice of the period with what it did: e-mails sent and failed, clicks, and the
 * orders the order webhook counted for it (units, revenue, orders per e-mail sent); with a CSV
 * of the same columns.
 */
export function noticeResults(notices: Notice[]): HTMLElement {
  if (notices.length === 0) {
    return el('p', { class: 'empty' }, ['この期間の再入荷通知はありません。'])
  }
  const csv = el('button', { type: 'button' }, ['CSV を書き出す'], {
    click: () => downloadCsv(csvFileName('再入荷通知の結果'), toCsv(notices, COLUMNS)),
  })
  return el('div', {}, [
    el('div', { class: 'toolbar' }, [csv]),
    el(
      'div',
      {
        class: 'table-scroll',
        tabindex: '0',
        role: 'region',
        'aria-label': '再入荷通知ごとの結果の表',
      },
      [
        el('table', { class: 'counts notices' }, [
          el('caption', {}, ['再入荷通知ごとの結果（新しい順）']),
          el('thead', {}, [
            el(
              'tr',
              {},
              COLUMNS.map((column) => el('th', { scope: 'col' }, [column.header])),
            ),
          ]),
          el(
            'tbody',
            {},
            notices.map((notice) =>
              el(
                'tr',
                {},
                COLUMNS.map((column) =>
                  el(
                    'td',
                    {
                      class:
                        column.header === '送信' && recordOnly(notice)
                          ? 'record-only'
                          : column.className,
                    },
                    [String(column.value(notice) ?? '')],
                  ),
                ),
              ),
            ),
          ),
        ]),
      ],
    ),
  ])
}
