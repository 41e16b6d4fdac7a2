import { findProduct, findVariant, targetKey, targetTitle } from '../../lib/productCatalogue.js'
import { quietHoursLabel } from '../../lib/quietHours.js'
import type { RouteAnswer } from '../../lib/routes.js'
import { el, field, replaceChildren } from '../elements.js'
import { formatTime, notWaitingText, startedWaveText, lineQuotaText } from '../texts.js'
import { stockImport } from './stockImport.js'
import type { ViewContext } from './viewContext.js'

type StockRow = RouteAnswer<'adminStockList'>['stock'][number]

/**
 * Stock per product (one row per variant of a product with variants, 「美濃焼 マグカップ（藍）」): its SKU, the quantity (edited in place; a change that starts an automatic
 * wave says what the wave did), who is waiting and why the others are not counted, the automatic
 * notice's settings; and a CSV import in the shape a POS exports, previewed before it is applied.
 */
export function stockView(context: ViewContext): HTMLElement {
  const area = el('div', { class: 'list-area', 'aria-busy': 'true' })

  async function load(): Promise<void> {
    area.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() => context.api.post('adminStockList', {}))
    area.setAttribute('aria-busy', 'false')
    if (!answer) return
    const quiet = answer.quietHours
    replaceChildren(area, [
      quiet &&
        el('p', { class: 'hint quiet-hours' }, [
          `夜間（${quietHoursLabel(quiet)}）は自動通知を送りません。夜間に配信の時刻になったものは、${quiet.until}:00 から時刻の早い順に配信します。`,
        ]),
      answer.line && el('p', { class: 'hint line-quota' }, [lineQuotaText(answer.line)]),
      stockTable(answer.stock),
    ])
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
    const label = targetTitle(row)
    const target = {
      productSlug: row.productSlug,
      ...(row.variant ? { variant: row.variant } : {}),
    }
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
          items: [{ ...target, quantity: value }],
        }),
      )
      save.disabled = false
      if (!answer) return
      const wave = answer.updated[0]?.wave
      await load()
      context.notify(
        `「${label}」の在庫数を ${value} にしました。${wave ? startedWaveText(wave) : ''}`,
      )
    })
    const why = notWaitingText(row.notWaiting)
    return el('tr', { 'data-product': targetKey(row) }, [
      el('th', { scope: 'row' }, [
        label,
        el('span', { class: 'sku' }, [`商品コード: ${skuOf(row) ?? '未設定'}`]),
      ]),
      el('td', { 'data-label': '在庫数' }, [form]),
      el('td', { class: 'waiting', 'data-label': '通知待ち' }, [
        // why: one block, so that the phone layout (label beside value) keeps the reason under it
        el('div', {}, [
          el('span', { class: 'count' }, [`${row.waiting} 人`]),
          why && el('span', { class: 'why' }, [why]),
        ]),
      ]),
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
    const holdHours = el('input', { type: 'number', min: 0, max: 168, value: auto?.holdHours ?? 0 })
    const form = el('form', { class: 'auto-form' }, [
      el('label', { class: 'check' }, [enabled, ' 在庫が 0 から増えたら自動で通知する']),
      field('件名', title),
      field('本文', body),
      el('p', { class: 'hint' }, [
        '{product} は商品名、{url} は商品ページの URL に置き換わります。',
      ]),
      field('在庫 1 点あたりの通知人数', perUnit),
      field('次の配信までの間隔（分）', interval),
      field('お取り置き（時間、0 はお取り置きなし）', holdHours),
      el('p', { class: 'hint' }, [
        'お取り置きを設定すると、在庫 1 点につき 1 人に通知し、メールの予約リンクから期限までお名前だけで予約できます。期限までに予約がなければ、次の配信で次の方にご案内します。',
      ]),
      el('button', { type: 'submit', class: 'primary' }, ['自動通知を保存']),
    ])
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const answer = await context.attempt(() =>
        context.api.post('adminNotifyAuto', {
          productSlug: row.productSlug,
          ...(row.variant ? { variant: row.variant } : {}),
          enabled: enabled.checked,
          emailTitle: title.value,
          emailBody: body.value,
          perUnit: Number(perUnit.value),
          intervalMinutes: Number(interval.value),
          holdHours: Number(holdHours.value),
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
    const hours = auto?.holdHours ?? 0
    const state = auto?.enabled
      ? hours > 0
        ? `オン（在庫 1 点につき 1 人、${hours} 時間お取り置き、${auto.intervalMinutes} 分ごと）`
        : `オン（在庫 1 点につき ${auto.perUnit} 人、${auto.intervalMinutes} 分ごと）`
      : 'オフ'
    const { open, claimed, expired } = row.holds
    const holds =
      hours > 0 || open + claimed + expired > 0
        ? el('p', { class: 'holds' }, [
            `お取り置き: 取り置き中 ${open} 件・予約済み ${claimed} 件・期限切れ ${expired} 件`,
          ])
        : null
    return el('div', {}, [
      el('details', {}, [
        el('summary', {}, [
          state,
          row.nextWaveAt ? `・次の配信 ${formatTime(row.nextWaveAt)}` : '',
        ]),
        form,
      ]),
      holds,
    ])
  }

  void load()
  return el('section', { 'aria-labelledby': 'stock-title' }, [
    el('h2', { id: 'stock-title' }, ['在庫']),
    el('p', { class: 'hint' }, [
      '在庫数を直接編集できます。在庫が 0 から増え、自動通知がオンの商品は、古い登録順に「在庫数 × 通知人数」人ずつ再入荷メールを送ります。「通知待ち」は送信の対象になる人数です（配信停止のまま再登録していない人、確認メールが未確認の人、配信できないアドレスは数えません）。',
    ]),
    stockImport(context, load),
    area,
  ])
}

/** The SKU of a row's product, or of its variant. */
function skuOf(row: { productSlug: string; variant?: string }): string | undefined {
  const product = findProduct(row.productSlug)
  if (!product) return undefined
  return row.variant === undefined ? product.sku : findVariant(product, row.variant)?.sku
}
