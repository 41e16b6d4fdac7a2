import type { RouteAnswer } from '../../lib/routes.js'
import { el, field, replaceChildren } from '../elements.js'
import { productLabel, reservationScreen, statusText, type RecordRow } from '../recordResources.js'
import { formatTime } from '../texts.js'
import { showLoadFailure } from './loadFailure.js'
import type { ViewContext } from './viewContext.js'

/** One row of POST /api/admin/reservations/products (its response schema). */
type PreorderProduct = RouteAnswer<'adminReservationsProducts'>['products'][number]

const WINDOW_LABELS: Record<PreorderProduct['window'], string> = {
  'not-yet': '受付開始前',
  open: '受付中',
  closed: '受付終了',
}

const dash = (value: string | number | null) => (value === null ? '—' : String(value))
const dateText = (value: string | null) =>
  value === null ? '—' : /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : formatTime(value)

function productsTable(products: PreorderProduct[]): HTMLElement {
  if (products.length === 0) {
    return el('p', { class: 'empty' }, ['予約枠や受付期間が設定された商品はありません。'])
  }
  const headings = [
    '商品',
    '予約上限数',
    '予約済み',
    '残り',
    '1件の上限',
    '受付開始',
    '受付終了',
    '発売予定日',
    '受付状態',
  ]
  return el('table', { class: 'records preorders' }, [
    el('thead', {}, [
      el(
        'tr',
        {},
        headings.map((text) => el('th', { scope: 'col' }, [text])),
      ),
    ]),
    el(
      'tbody',
      {},
      products.map((product) => {
        const cells = [
          product.title,
          dash(product.reservationLimit),
          dash(product.heldUnits),
          dash(product.remaining),
          String(product.maxPerReservation),
          dateText(product.opensAt),
          dateText(product.closesAt),
          dateText(product.releaseDate),
          WINDOW_LABELS[product.window],
        ]
        return el(
          'tr',
          { 'data-product': product.productSlug },
          cells.map((text, index) => el('td', { 'data-label': headings[index] }, [text])),
        )
      }),
    ),
  ])
}

function reservationDetails(row: RecordRow): HTMLElement {
  const items: [string, string][] = [
    ['予約番号', row.id],
    ['商品', productLabel(row.productSlug)],
    ['数量', String(row.quantity ?? 1)],
    ['名前', row.name ?? ''],
    ['メールアドレス', row.email],
    ['ステータス', statusText(reservationScreen, row.status)],
    ['受付日時', formatTime(row.createdAt)],
    ['対応日時', formatTime(row.respondedAt)],
    ['メモ', row.notes ?? ''],
    ['アーカイブ', row.isArchived ? `アーカイブ済み（${formatTime(row.archivedAt)}）` : '有効'],
  ]
  return el(
    'dl',
    { class: 'found-reservation' },
    items.flatMap(([term, value]) => [el('dt', {}, [term]), el('dd', {}, [value])]),
  )
}

/**
 * Pre-orders for staff: find a reservation by the number the customer quotes (active or
 * archived), and every pre-order product's cap, units held and left, and window.
 */
export function preorderView(context: ViewContext): HTMLElement {
  const idInput = el('input', { type: 'search', placeholder: 'res_…', autocomplete: 'off' })
  const findButton = el('button', { type: 'submit' }, ['探す'])
  const found = el('div', { class: 'result-area', 'aria-live': 'polite' })
  const productsArea = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])
  const reload = el('button', { type: 'button' }, ['再読み込み'])

  const findForm = el('form', { class: 'filters', role: 'search' }, [
    field('予約番号', idInput),
    findButton,
  ])
  findForm.addEventListener('submit', (event) => {
    event.preventDefault()
    void find()
  })

  async function find(): Promise<void> {
    const id = idInput.value.trim()
    if (!id) return
    findButton.disabled = true
    const answer = await context.attempt(() => context.api.post('adminReservationsFind', { id }))
    findButton.disabled = false
    replaceChildren(found, [
      answer
        ? reservationDetails(answer.reservation)
        : el('p', { class: 'empty' }, ['この予約番号の予約は見つかりませんでした。']),
    ])
  }

  async function load(): Promise<void> {
    productsArea.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() => context.api.post('adminReservationsProducts', {}))
    if (!answer) return showLoadFailure(productsArea)
    replaceChildren(productsArea, [productsTable(answer.products)])
    productsArea.setAttribute('aria-busy', 'false')
  }
  reload.addEventListener('click', () => void load())
  void load()

  return el('section', { 'aria-labelledby': 'preorders-title' }, [
    el('h2', { id: 'preorders-title' }, ['予約枠と予約番号検索']),
    el('h3', {}, ['予約番号で探す']),
    findForm,
    found,
    el('h3', {}, ['商品ごとの予約枠']),
    el('div', { class: 'toolbar' }, [reload]),
    productsArea,
  ])
}
