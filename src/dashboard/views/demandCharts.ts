import uPlot from 'uplot'
import { el } from '../elements.js'
import type { RouteAnswer } from '../../lib/routes.js'
import { targetTitle } from '../../lib/productCatalogue.js'

/**
 * The charts of the overview (docs/dashboard.md "Overview"). Lines are drawn by uPlot (small,
 * canvas, no dependencies); each chart has its numbers as a table beside it for screen readers
 * and for reading exact values. Bars of demand per product are plain HTML (a ranked list reads
 * better as rows than as a canvas) with the numbers written out.
 */

type Overview = RouteAnswer<'adminOverview'>
type SeriesKey = Exclude<keyof Overview['series'][number], 'day'>

/** The daily lines, in the order of their legend. Colours: distinguishable, AA on white. */
export const DAILY_LINES: readonly { key: SeriesKey; label: string; colour: string }[] = [
  { key: 'reservations', label: '予約', colour: '#1f5fbf' },
  { key: 'signups', label: '再入荷通知の登録', colour: '#b34700' },
  { key: 'sent', label: '通知メール送信', colour: '#2e7d32' },
  { key: 'failed', label: '送信失敗', colour: '#c62828' },
  { key: 'searches', label: '検索', colour: '#6a1b9a' },
  { key: 'zeroSearches', label: '結果 0 件の検索', colour: '#5d4037' },
]

const JST_OFFSET_S = 9 * 3600

/** `M/D` of a JST day. */
function shortDay(day: string): string {
  const [, month, date] = day.split('-')
  return `${Number(month)}/${Number(date)}`
}

/**
 * The line chart of the daily series: a canvas for the eye (described by its label) and the
 * same numbers in a table (caption, one row per day).
 */
export function dailyChart(overview: Overview): HTMLElement {
  const totals = DAILY_LINES.map(
    ({ key, label }) => `${label} ${overview.series.reduce((sum, row) => sum + row[key], 0)}`,
  )
  const canvasArea = el('div', {
    class: 'chart',
    role: 'img',
    'aria-label': `日別の推移のグラフ（${shortDay(overview.from)}〜${shortDay(overview.to)}）。期間合計: ${totals.join('、')}。数値は下の表にあります。`,
  })
  const legend = el(
    'ul',
    { class: 'chart-legend' },
    DAILY_LINES.map(({ label, colour }) =>
      el('li', {}, [
        el('span', { class: 'swatch', style: `background:${colour}`, 'aria-hidden': 'true' }),
        label,
      ]),
    ),
  )
  const table = el('table', { class: 'counts daily' }, [
    el('caption', {}, ['日別の件数']),
    el('thead', {}, [
      el('tr', {}, [
        el('th', { scope: 'col' }, ['日付']),
        ...DAILY_LINES.map(({ label }) => el('th', { scope: 'col' }, [label])),
      ]),
    ]),
    el(
      'tbody',
      {},
      [...overview.series]
        .reverse()
        .map((row) =>
          el('tr', {}, [
            el('th', { scope: 'row' }, [row.day]),
            ...DAILY_LINES.map(({ key }) => el('td', { class: 'number' }, [row[key]])),
          ]),
        ),
    ),
  ])
  const wrapper = el('div', { class: 'chart-block' }, [
    legend,
    canvasArea,
    el('details', { class: 'chart-table' }, [
      el('summary', {}, ['数値を表で見る']),
      el(
        'div',
        { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': '日別の件数の表' },
        [table],
      ),
    ]),
  ])
  // why: uPlot measures its container; drawn once the block is in the page
  requestAnimationFrame(() => drawLines(canvasArea, overview))
  return wrapper
}

function drawLines(container: HTMLElement, overview: Overview): void {
  const xs = overview.series.map((row) => Date.parse(`${row.day}T00:00:00Z`) / 1000 - JST_OFFSET_S)
  const data: uPlot.AlignedData = [
    xs,
    ...DAILY_LINES.map(({ key }) => overview.series.map((row) => row[key])),
  ]
  const width = Math.max(280, container.clientWidth || 600)
  new uPlot(
    {
      width,
      height: 260,
      legend: { show: false },
      cursor: { show: true, points: { show: false } },
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Asia/Tokyo'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      axes: [
        {
          // why: one label per shown day (uPlot's own time splits fall between days)
          splits: () => {
            const step = Math.ceil(xs.length / Math.max(2, Math.floor(width / 56)))
            return xs.filter((_, i) => (xs.length - 1 - i) % step === 0)
          },
          values: (_u, splits) =>
            splits.map((s) =>
              shortDay(new Date((s + JST_OFFSET_S) * 1000).toISOString().slice(0, 10)),
            ),
        },
        { values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? String(s) : '')) },
      ],
      series: [
        {},
        ...DAILY_LINES.map(({ label, colour }) => ({
          label,
          stroke: colour,
          width: 2,
          points: { show: overview.series.length <= 31 },
        })),
      ],
    },
    data,
    container,
  )
}

/** Demand per product as ranked HTML bars: waiting subscribers and reserved units (against the cap). */
export function productBars(overview: Overview, label: (slug: string) => string): HTMLElement {
  if (overview.products.length === 0)
    return el('p', { class: 'empty' }, ['商品別の需要: まだありません。'])
  // why: a product with variants is followed by a line per variant (「美濃焼 マグカップ（藍）」)
  const lines = overview.products.flatMap((row) => [
    { ...row, name: label(row.productSlug), variantLine: false },
    ...(row.variants ?? []).map((line) => ({
      ...line,
      name: targetTitle({ productSlug: row.productSlug, variant: line.variant }),
      variantLine: true,
    })),
  ])
  const largest = Math.max(
    1,
    ...lines.map((p) => Math.max(p.waiting, p.cap ?? p.reservedUnits, p.reservedUnits)),
  )
  const bar = (value: number, kind: string) =>
    el('span', {
      class: `bar ${kind}`,
      style: `width:${((value / largest) * 100).toFixed(1)}%`,
      'aria-hidden': 'true',
    })
  const table = el('table', { class: 'counts bars' }, [
    el('caption', {}, ['商品別の需要（入荷待ちと予約の多い順）']),
    el('thead', {}, [
      el('tr', {}, [
        el('th', { scope: 'col' }, ['商品']),
        el('th', { scope: 'col' }, ['入荷待ち（人）']),
        el('th', { scope: 'col' }, ['予約数 / 上限']),
      ]),
    ]),
    el(
      'tbody',
      {},
      lines.map((row) =>
        el('tr', row.variantLine ? { class: 'variant-line' } : {}, [
          el('th', { scope: 'row' }, [row.name]),
          el('td', { class: 'bar-cell' }, [
            bar(row.waiting, 'waiting'),
            el('span', { class: 'bar-value' }, [row.waiting]),
          ]),
          el('td', { class: 'bar-cell' }, [
            el('span', { class: 'bar-track' }, [
              bar(row.reservedUnits, 'reserved'),
              row.cap !== null ? bar(row.cap - row.reservedUnits, 'left') : null,
            ]),
            el('span', { class: 'bar-value' }, [
              row.cap === null
                ? `${row.reservedUnits}（上限なし）`
                : `${row.reservedUnits} / ${row.cap}`,
            ]),
          ]),
        ]),
      ),
    ),
  ])
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': '商品別の需要の表' },
    [table],
  )
}
