import { findProduct, findSku, findVariant, targetTitle } from '../../lib/productCatalogue.js'
import type { RouteAnswer } from '../../lib/routes.js'
import { stockTableFromCsv, StockTableFormatError } from '../../lib/stock/stockTable.js'
import { el, field, replaceChildren } from '../elements.js'
import { productLabel } from '../recordResources.js'
import { startedWaveText } from '../texts.js'
import type { ViewContext } from './viewContext.js'

type StockItem = { productSlug: string; variant?: string; quantity: number }
type PreviewLine = RouteAnswer<'adminStockPreview'>['changes'][number]

/** Items per stock request (the endpoints take at most 500). */
const IMPORT_CHUNK = 500

/** The column names a POS export may use, as staff read them (src/lib/stock/stockTable.ts). */
const COLUMNS_HINT =
  '1 行目に列名が必要です: 商品は「SKU」または「商品コード」（種類ごとの SKU で種類も決まります）、在庫数は「在庫数」または「quantity」。'

/**
 * The CSV import of the 在庫 screen, in two steps: a file chosen is only read and shown (product,
 * SKU, quantity now → in the file, how many waiting subscribers an automatic notice would e-mail
 * at once, POST /api/admin/stock/preview); nothing is stored until staff press
 * 「この内容で取り込む」. `onApplied` runs after an import, to show the new counts.
 */
export function stockImport(context: ViewContext, onApplied: () => Promise<void>): HTMLElement {
  const fileInput = el('input', { type: 'file', accept: '.csv,text/csv' })
  const result = el('div', { class: 'import-result', 'aria-live': 'polite' })
  fileInput.addEventListener('change', () => void readFile())

  async function readFile(): Promise<void> {
    const file = fileInput.files?.[0]
    if (!file) return
    let table
    try {
      table = stockTableFromCsv(await file.text())
    } catch (error) {
      if (!(error instanceof StockTableFormatError)) throw error
      fileInput.value = ''
      context.notify(`CSV を読み取れませんでした。${COLUMNS_HINT}`, 'error')
      return
    }
    // why: staff open the file in a spreadsheet, where the header is row 1
    const problems: string[] = table.rejectedRows.map(
      (row) => `${row + 1} 行目: 商品または在庫数が読み取れません`,
    )
    const items: StockItem[] = []
    for (const line of table.lines) {
      if (line.productSlug) {
        items.push({
          productSlug: line.productSlug,
          ...(line.variant ? { variant: line.variant } : {}),
          quantity: line.quantity,
        })
        continue
      }
      // why: a variant's SKU names the product and the variant
      const owner = findSku(line.sku ?? '')
      if (!owner) problems.push(`SKU ${line.sku}: 該当する商品がありません`)
      else {
        items.push({
          productSlug: owner.product.slug,
          ...(owner.variant ? { variant: owner.variant.id } : {}),
          quantity: line.quantity,
        })
      }
    }
    const changes: PreviewLine[] = []
    for (let start = 0; start < items.length; start += IMPORT_CHUNK) {
      const answer = await context.attempt(
        () =>
          context.api.post('adminStockPreview', {
            items: items.slice(start, start + IMPORT_CHUNK),
          }),
        result,
      )
      if (!answer) return
      changes.push(...answer.changes)
      for (const error of answer.errors ?? []) problems.push(problemText(error))
    }
    showPreview(items, changes, problems)
  }

  function showPreview(items: StockItem[], changes: PreviewLine[], problems: string[]): void {
    const apply = el('button', { type: 'button', class: 'primary' }, ['この内容で取り込む'], {
      click: () => void applyItems(items, problems),
    })
    const cancel = el('button', { type: 'button' }, ['取り込まない'], {
      click: () => {
        fileInput.value = ''
        replaceChildren(result, [
          el('p', {}, ['取り込みを中止しました。在庫数は変わっていません。']),
        ])
        fileInput.focus()
      },
    })
    const notified = changes.reduce((sum, change) => sum + change.notify, 0)
    replaceChildren(result, [
      changes.length > 0
        ? el(
            'div',
            {
              class: 'table-scroll',
              tabindex: 0,
              role: 'region',
              'aria-label': '取り込む内容の表',
            },
            [
              el('table', { class: 'counts import-preview' }, [
                el('caption', {}, ['取り込む内容']),
                el('thead', {}, [
                  el(
                    'tr',
                    {},
                    [
                      '商品',
                      '商品コード',
                      '在庫数（現在 → 取り込み後）',
                      '自動通知で知らせる人数',
                    ].map((h) => el('th', { scope: 'col' }, [h])),
                  ),
                ]),
                el('tbody', {}, changes.map(previewRow)),
              ]),
            ],
          )
        : el('p', {}, ['取り込める行がありません。']),
      problemList(problems),
      changes.length > 0 &&
        el('p', { class: 'hint' }, [
          notified > 0
            ? `取り込むと、自動通知がオンの商品で合計 ${notified} 人に再入荷のお知らせが届きます。`
            : '取り込んでも、再入荷のお知らせは送られません。',
        ]),
      el('div', { class: 'actions' }, [changes.length > 0 && apply, cancel]),
    ])
    ;(changes.length > 0 ? apply : cancel).focus()
  }

  function previewRow(change: PreviewLine): HTMLElement {
    const sku = skuOf(change)
    const from = change.previous === null ? '未設定' : String(change.previous)
    return el('tr', {}, [
      el('td', { class: 'product' }, [targetTitle(change)]),
      el('td', { class: 'code' }, [sku ?? '—']),
      el('td', { class: 'change' }, [
        change.previous === change.quantity
          ? `${from}（変更なし）`
          : `${from} → ${change.quantity}`,
      ]),
      el('td', { class: 'number' }, [`${change.notify} 人`]),
    ])
  }

  /** Stores `items`; the lines the file could not use (`unused`) are listed again beside the result. */
  async function applyItems(items: StockItem[], unused: string[]): Promise<void> {
    const problems = [...unused]
    const waves: string[] = []
    let updated = 0
    for (let start = 0; start < items.length; start += IMPORT_CHUNK) {
      const answer = await context.attempt(
        () => context.api.post('adminStock', { items: items.slice(start, start + IMPORT_CHUNK) }),
        result,
      )
      if (!answer) break
      updated += answer.updated.length
      for (const change of answer.updated) {
        if (change.wave) {
          waves.push(`「${targetTitle(change)}」: ${startedWaveText(change.wave)}`)
        }
      }
      for (const error of answer.errors ?? []) problems.push(problemText(error))
    }
    fileInput.value = ''
    replaceChildren(result, [
      el('p', {}, [`${updated} 商品の在庫数を取り込みました。`]),
      waves.length > 0 &&
        el(
          'ul',
          { class: 'import-waves' },
          waves.map((text) => el('li', {}, [text])),
        ),
      problemList(problems),
    ])
    await onApplied()
  }

  return el('div', { class: 'card' }, [
    field('CSV を取り込む（列: 商品コード（SKU）と在庫数）', fileInput),
    el('p', { class: 'hint' }, [
      `${COLUMNS_HINT}ファイルを選ぶと、取り込む前に変更内容を表示します。`,
    ]),
    result,
  ])
}

/** The SKU of a product or of its variant, if the catalogue has one. */
function skuOf(target: { productSlug: string; variant?: string }): string | undefined {
  const product = findProduct(target.productSlug)
  if (!product) return undefined
  if (target.variant === undefined) return product.sku
  return findVariant(product, target.variant)?.sku
}

/** What staff read for a line the server could not use. */
function problemText(error: { productSlug?: string; variant?: string; sku?: string }): string {
  const name = error.sku ? `SKU ${error.sku}` : (error.productSlug ?? '')
  if (error.productSlug && findProduct(error.productSlug)) {
    return `${productLabel(error.productSlug)}: 該当する種類がありません`
  }
  return `${name}: 該当する商品がありません`
}

function problemList(problems: string[]): HTMLElement | false {
  return (
    problems.length > 0 &&
    el(
      'ul',
      { class: 'import-problems' },
      problems.map((text) => el('li', {}, [text])),
    )
  )
}
