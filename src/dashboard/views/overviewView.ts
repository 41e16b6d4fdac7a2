import { el, replaceChildren } from '../elements.js'
import { productLabel } from '../recordResources.js'
import { RESERVATION_STATUS_LABELS, SUBSCRIPTION_STATUS_LABELS } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'
import { dailyChart, productBars } from './demandCharts.js'
import { noticeResults } from './noticeResults.js'

type RecordStats = RouteAnswer<'adminStats'>['stats']['notify']
type Overview = RouteAnswer<'adminOverview'>
type QueryTrend = Overview['topQueries'][number]

/** Queries shown per table; more are asked for, so the card can say how many there were. */
const KEYWORDS_SHOWN = 20
/** Distinct queries the overview counts up to. */
const KEYWORD_LIMIT = 100

/** 「全 22 語のうち上位 20 語を表示」 when a table shows only part of the queries. */
function shownOf(distinct: number): HTMLElement | null {
  if (distinct <= KEYWORDS_SHOWN) return null
  const all = distinct >= KEYWORD_LIMIT ? `${KEYWORD_LIMIT} 語以上` : `全 ${distinct} 語`
  return el('p', { class: 'hint' }, [`${all}のうち上位 ${KEYWORDS_SHOWN} 語を表示しています。`])
}

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

/** An arrow and a word for a query's count against the period before. */
function trendOf({ count, previous }: QueryTrend): HTMLElement {
  const [arrow, word] =
    previous === 0
      ? ['↑', '新規']
      : count > previous
        ? ['↑', '増加']
        : count < previous
          ? ['↓', '減少']
          : ['→', '横ばい']
  return el(
    'span',
    { class: `trend ${word === '減少' ? 'down' : word === '横ばい' ? 'flat' : 'up'}` },
    [el('span', { 'aria-hidden': 'true' }, [arrow]), ` ${word}`],
  )
}

function trendTable(caption: string, list: QueryTrend[]): HTMLElement {
  if (list.length === 0) return el('p', { class: 'empty' }, [`${caption}: まだありません。`])
  return el('table', { class: 'counts' }, [
    el('caption', {}, [caption]),
    el('thead', {}, [
      el(
        'tr',
        {},
        ['検索語', '件数', '前の期間', '傾向'].map((h) => el('th', { scope: 'col' }, [h])),
      ),
    ]),
    el(
      'tbody',
      {},
      list
        .slice(0, KEYWORDS_SHOWN)
        .map((row) =>
          el('tr', {}, [
            el('td', { class: 'query' }, [row.query]),
            el('td', { class: 'number' }, [row.count]),
            el('td', { class: 'number' }, [row.previous]),
            el('td', { class: 'trend-cell' }, [trendOf(row)]),
          ]),
        ),
    ),
  ])
}

const PERIODS = [7, 30, 90] as const

/**
 * The overview: pictures of demand for the last 7/30/90 JST days (daily lines, demand per
 * product, restock notices with clicks and orders, searches with their trend), all counted on the server
 * (POST /api/admin/overview), and the §4.9 statistics.
 */
export function overviewView(context: ViewContext): HTMLElement {
  const statsArea = el('div', { class: 'cards', 'aria-busy': 'true' }, ['読み込み中…'])
  const demandArea = el('div', { class: 'demand', 'aria-busy': 'true' }, ['読み込み中…'])
  let days: (typeof PERIODS)[number] = 30
  let latest = 0
  const buttons = PERIODS.map((period) =>
    el(
      'button',
      {
        type: 'button',
        class: 'toggle',
        'aria-pressed': String(period === days),
        'data-days': period,
      },
      [`${period} 日`],
      {
        click: () => {
          days = period
          for (const button of buttons) {
            button.setAttribute('aria-pressed', String(button.dataset.days === String(period)))
          }
          void loadDemand()
        },
      },
    ),
  )

  async function loadStats(): Promise<void> {
    const answer = await context.attempt(() => context.api.post('adminStats', {}))
    statsArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(statsArea, [])
    replaceChildren(statsArea, [
      statsCard('予約', answer.stats.reservations, RESERVATION_STATUS_LABELS),
      statsCard('再入荷通知の登録', answer.stats.notify, SUBSCRIPTION_STATUS_LABELS),
    ])
  }

  async function loadDemand(): Promise<void> {
    const asked = ++latest
    demandArea.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(
      () => context.api.post('adminOverview', { days }),
      demandArea,
    )
    // why: a slower answer for a period toggled away from must not replace the newer one
    if (asked !== latest) return
    demandArea.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(demandArea, [])
    replaceChildren(demandArea, [
      el('section', { class: 'card wide', 'aria-labelledby': 'daily-title' }, [
        el('h3', { id: 'daily-title' }, [
          `日別の推移（過去 ${answer.days} 日: ${answer.from}〜${answer.to}）`,
        ]),
        dailyChart(answer),
      ]),
      el('section', { class: 'card wide', 'aria-labelledby': 'products-title' }, [
        el('h3', { id: 'products-title' }, ['商品別の需要']),
        productBars(answer, productLabel),
      ]),
      el('section', { class: 'card wide', 'aria-labelledby': 'notices-title' }, [
        el('h3', { id: 'notices-title' }, ['再入荷通知の結果']),
        el('p', { class: 'hint' }, [
          'クリックは、メール内の商品リンクを開いた人の数です（1 人 1 回）。注文は、通知が届いてから一定の日数（既定 7 日）以内にその商品を買った注文で、注文連携（Webhook）から数えます。購入率は送信したメールあたりの注文です。',
        ]),
        noticeResults(answer.notices),
      ]),
      el('section', { class: 'card', 'aria-labelledby': 'top-title' }, [
        el('h3', { id: 'top-title' }, ['よく検索された言葉']),
        el('p', { class: 'total' }, [`検索回数 ${answer.totalSearches} 回`]),
        shownOf(answer.distinctQueries),
        trendTable('よく検索された言葉', answer.topQueries),
      ]),
      el('section', { class: 'card', 'aria-labelledby': 'zero-title' }, [
        el('h3', { id: 'zero-title' }, ['結果が 0 件だった検索']),
        shownOf(answer.distinctZeroResultQueries),
        trendTable('結果が 0 件だった検索', answer.zeroResultQueries),
        el('p', { class: 'hint' }, [
          '同義語を追加すると、次から見つかるようになります: ',
          el('a', { href: '#/search' }, ['検索の同義語']),
        ]),
      ]),
    ])
  }

  void loadStats()
  void loadDemand()
  return el('section', { 'aria-labelledby': 'overview-title' }, [
    el('h2', { id: 'overview-title' }, ['概要']),
    el('div', { class: 'period-toggle', role: 'group', 'aria-label': '期間' }, [
      el('span', { class: 'period-label', 'aria-hidden': 'true' }, ['期間:']),
      ...buttons,
    ]),
    demandArea,
    el('h2', {}, ['統計']),
    statsArea,
  ])
}
