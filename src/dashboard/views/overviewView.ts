import { el, field, replaceChildren, select } from '../elements.js'
import { productLabel } from '../recordResources.js'
import { RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

type RecordStats = RouteAnswer<'adminStats'>['stats']['notify']
type QueryCount = RouteAnswer<'adminSearchKeywords'>['topQueries'][number]

/** A two-column table of `[label, count]`, largest first. */
function countTable(caption: string, heading: string, counts: [string, number][]): HTMLElement {
  if (counts.length === 0) return el('p', { class: 'empty' }, [`${caption}: まだありません。`])
  return el('table', { class: 'counts' }, [
    el('caption', {}, [caption]),
    el('thead', {}, [
      el('tr', {}, [el('th', { scope: 'col' }, [heading]), el('th', { scope: 'col' }, ['件数'])]),
    ]),
    el(
      'tbody',
      {},
      counts.map(([label, count]) =>
        el('tr', {}, [el('td', {}, [label]), el('td', { class: 'number' }, [count])]),
      ),
    ),
  ])
}

function sorted(
  counts: Record<string, number>,
  label: (key: string) => string,
): [string, number][] {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, count]) => [label(key), count])
}

function statsCard(title: string, stats: RecordStats, statusLabels: Record<string, string>) {
  return el('section', { class: 'card' }, [
    el('h3', {}, [title]),
    el('p', { class: 'total' }, [`合計 ${stats.total} 件（アーカイブを含む）`]),
    countTable(
      `${title}: ステータス別`,
      'ステータス',
      sorted(stats.byStatus, (s) => statusLabels[s] ?? s),
    ),
    countTable(`${title}: 商品別`, '商品', sorted(stats.byProduct, productLabel)),
  ])
}

/** §4.9 statistics and what shoppers searched for (top and zero-result queries, period selectable). */
export function overviewView(context: ViewContext): HTMLElement {
  const statsArea = el('div', { class: 'cards', 'aria-busy': 'true' }, ['読み込み中…'])
  const period = select(
    [
      ['7', '過去 7 日'],
      ['30', '過去 30 日'],
      ['90', '過去 90 日'],
    ],
    '30',
  )
  const keywordArea = el('div', { class: 'cards', 'aria-busy': 'true' }, ['読み込み中…'])

  async function loadStats(): Promise<void> {
    const answer = await context.attempt(() => context.api.post('adminStats', {}))
    statsArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(statsArea, [])
    replaceChildren(statsArea, [
      statsCard('予約', answer.stats.reservations, RESERVATION_STATUS_LABELS),
      statsCard('再入荷通知の登録', answer.stats.notify, SUBSCRIPTION_STATUS_LABELS),
    ])
  }

  async function loadKeywords(): Promise<void> {
    keywordArea.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() =>
      context.api.post('adminSearchKeywords', {
        days: Number(period.value),
        limit: 20,
      }),
    )
    keywordArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(keywordArea, [])
    const rows = (list: QueryCount[]) =>
      list.map(({ query, count }) => [query, count] as [string, number])
    replaceChildren(keywordArea, [
      el('section', { class: 'card' }, [
        el('h3', {}, ['よく検索された言葉']),
        el('p', { class: 'total' }, [`検索回数 ${answer.totalSearches} 回`]),
        countTable('よく検索された言葉', '検索語', rows(answer.topQueries)),
      ]),
      el('section', { class: 'card' }, [
        el('h3', {}, ['結果が 0 件だった検索']),
        countTable('結果が 0 件だった検索', '検索語', rows(answer.zeroResultQueries)),
      ]),
    ])
  }

  period.addEventListener('change', () => void loadKeywords())
  void loadStats()
  void loadKeywords()
  return el('section', { 'aria-labelledby': 'overview-title' }, [
    el('h2', { id: 'overview-title' }, ['概要']),
    statsArea,
    el('h2', {}, ['サイト内検索']),
    el('form', { class: 'filters' }, [field('期間', period)]),
    keywordArea,
  ])
}
