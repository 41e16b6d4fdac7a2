import type { RouteAnswer } from '../../lib/routes.js'
import { findProductBySku } from '../../lib/productCatalogue.js'
import { stockTableFromCsv, StockTableFormatError } from '../../lib/stock/stockTable.js'
import { el, field, replaceChildren } from '../elements.js'
import { productLabel } from '../recordResources.js'
import { formatTime } from '../texts.js'
import type { ViewContext } from './viewContext.js'

type StockRow = RouteAnswer<'adminStockList'>['stock'][number]

/** Items per stock request (the endpoint takes at most 500). */
const IMPORT_CHUNK = 500

/**
 * Stock per product: the quantity (edited in place), how many subscribers wait, the automatic
 * notice's settings; and a CSV import in the shape a POS exports (sku or slug, quantity).
 */
export function stockView(context: ViewContext): HTMLElement {
  const area = el('div', { class: 'list-area', 'aria-busy': 'true' })
  const importResult = el('div', { class: 'import-result', 'aria-live': 'polite' })
  const fileInput = el('input', { type: 'file', accept: '.csv,text/csv' })
  fileInput.addEventListener('change', () => void importCsv())

  async function load(): Promise<void> {
    area.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() => context.api.post('adminStockList', {}))
    area.setAttribute('aria-busy', 'false')
    if (!answer) return
    replaceChildren(area, [stockTable(answer.stock)])
  }

  function stockTable(rows: StockRow[]): HTMLElement {
    return el('table', { class: 'stock' }, [
      el('thead', {}, [
        el('tr', {}, [
          el('th', { scope: 'col' }, ['商品']),
          el('th', { scope: 'col' }, ['在庫数']),
          el('th', { scope: 'col' }, ['通知待ち']),
          el('th', { scope: 'col' }, ['最終更新']),
          el('th', { scope: 'col' }, ['自動通知']),
        ]),
      ]),
      el('tbody', {}, rows.map(stockLine)),
    ])
  }

  function stockLine(row: StockRow): HTMLElement {
    const label = productLabel(row.productSlug)
    const quantity = el('input', {
      type: 'number',
      min: 0,
      step: 1,
      inputmode: 'numeric',
      value: row.quantity ?? '',
      placeholder: '未設定',
      'aria-label': `${label}の在庫数`,
    })
    const save = el('button', { type: 'submit' }, ['保存'])
    const form = el('form', { class: 'inline-edit' }, [quantity, save])
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const value = Number(quantity.value)
      if (quantity.value.trim() === '' || !Number.isInteger(value) || value < 0) {
        context.notify(`「${label}」の在庫数は 0 以上の整数で入力してください。`, 'error')
        return
      }
      save.disabled = true
      const answer = await context.attempt(() =>
        context.api.post('adminStock', {
          items: [{ productSlug: row.productSlug, quantity: value }],
        }),
      )
      save.disabled = false
      if (!answer) return
      context.notify(`「${label}」の在庫数を ${value} にしました。`)
      await load()
    })
    return el('tr', { 'data-product': row.productSlug }, [
      el('th', { scope: 'row' }, [label]),
      el('td', { 'data-label': '在庫数' }, [form]),
      el('td', { class: 'waiting', 'data-label': '通知待ち' }, [`${row.waiting} 人`]),
      el('td', { 'data-label': '最終更新' }, [formatTime(row.updatedAt) || '—']),
      el('td', { 'data-label': '自動通知' }, [autoSettings(row, label)]),
    ])
  }

  function autoSettings(row: StockRow, label: string): HTMLElement {
    const auto = row.auto
    const enabled = el('input', { type: 'checkbox', checked: auto?.enabled ?? false })
    const title = el('input', { type: 'text', maxlength: 200, value: auto?.emailTitle ?? '' })
    const body = el('textarea', { rows: 4, maxlength: 20000 }, [auto?.emailBody ?? ''])
    const perUnit = el('input', { type: 'number', min: 1, max: 100, value: auto?.perUnit ?? 1 })
    const interval = el('input', {
      type: 'number',
      min: 10,
      max: 10080,
      value: auto?.intervalMinutes ?? 60,
    })
    const form = el('form', { class: 'auto-form' }, [
      el('label', { class: 'check' }, [enabled, ' 在庫が 0 から増えたら自動で通知する']),
      field('件名', title),
      field('本文', body),
      el('p', { class: 'hint' }, [
        '{product} は商品名、{url} は商品ページの URL に置き換わります。',
      ]),
      field('在庫 1 点あたりの通知人数', perUnit),
      field('次の配信までの間隔（分）', interval),
      el('button', { type: 'submit', class: 'primary' }, ['自動通知を保存']),
    ])
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const answer = await context.attempt(() =>
        context.api.post('adminNotifyAuto', {
          productSlug: row.productSlug,
          enabled: enabled.checked,
          emailTitle: title.value,
          emailBody: body.value,
          perUnit: Number(perUnit.value),
          intervalMinutes: Number(interval.value),
        }),
      )
      if (!answer) return
      context.notify(
        answer.auto.enabled
          ? `「${label}」の自動通知をオンにしました。次に在庫が 0 から増えたときに配信します。`
          : `「${label}」の自動通知をオフにしました。`,
      )
      await load()
    })
    const state = auto?.enabled
      ? `オン（在庫 1 点につき ${auto.perUnit} 人、${auto.intervalMinutes} 分ごと）`
      : 'オフ'
    return el('details', {}, [
      el('summary', {}, [state, row.nextWaveAt ? `・次の配信 ${formatTime(row.nextWaveAt)}` : '']),
      form,
    ])
  }

  async function importCsv(): Promise<void> {
    const file = fileInput.files?.[0]
    if (!file) return
    let table
    try {
      table = stockTableFromCsv(await file.text())
    } catch (error) {
      if (!(error instanceof StockTableFormatError)) throw error
      context.notify('CSV の 1 行目に列名（sku または productSlug、quantity）が必要です。', 'error')
      return
    }
    // why: staff open the file in a spreadsheet, where the header is row 1
    const problems: string[] = table.rejectedRows.map(
      (row) => `${row + 1} 行目: 商品または在庫数が読み取れません`,
    )
    const items: { productSlug: string; quantity: number }[] = []
    for (const line of table.lines) {
      const slug = line.productSlug ?? findProductBySku(line.sku ?? '')?.slug
      if (slug) items.push({ productSlug: slug, quantity: line.quantity })
      else problems.push(`SKU ${line.sku}: 該当する商品がありません`)
    }
    let updated = 0
    for (let start = 0; start < items.length; start += IMPORT_CHUNK) {
      const answer = await context.attempt(() =>
        context.api.post('adminStock', {
          items: items.slice(start, start + IMPORT_CHUNK),
        }),
      )
      if (!answer) break
      updated += answer.updated.length
      for (const error of answer.errors ?? []) {
        problems.push(`${error.productSlug ?? error.sku}: 該当する商品がありません`)
      }
    }
    fileInput.value = ''
    replaceChildren(importResult, [
      el('p', {}, [`${updated} 商品の在庫数を取り込みました。`]),
      problems.length > 0 &&
        el(
          'ul',
          { class: 'import-problems' },
          problems.map((text) => el('li', {}, [text])),
        ),
    ])
    await load()
  }

  void load()
  return el('section', { 'aria-labelledby': 'stock-title' }, [
    el('h2', { id: 'stock-title' }, ['在庫']),
    el('p', { class: 'hint' }, [
      '在庫数を直接編集できます。在庫が 0 から増え、自動通知がオンの商品は、古い登録順に「在庫数 × 通知人数」人ずつ再入荷メールを送ります。',
    ]),
    el('div', { class: 'card' }, [
      field('CSV を取り込む（列: sku または productSlug、quantity）', fileInput),
      importResult,
    ]),
    area,
  ])
}
