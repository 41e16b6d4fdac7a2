import { actionText, actorText, changeText, recordText, type AuditEntry } from '../auditTexts.js'
import { el, field, replaceChildren, select } from '../elements.js'
import { productOptions } from '../recordResources.js'
import { serverPager } from '../pager.js'
import { formatTime } from '../texts.js'
import type { ViewContext } from './viewContext.js'

const PAGE_SIZE = 50

/**
 * Every change, newest first, with who made it: the records' timelines in one list, plus what
 * belongs to no reservation or subscription (stock, automatic notice settings, personal-data
 * requests, suppressions, synonyms). Filter by the person (a STAFF_TOKENS name), by a record's
 * id, or by a product (its stock and automatic-notice changes).
 */
export function auditView(context: ViewContext): HTMLElement {
  const actor = el('input', { type: 'text', name: 'actor', autocomplete: 'off' })
  const recordId = el('input', { type: 'text', name: 'recordId', autocomplete: 'off' })
  // why: a product's own changes (stock, automatic notice) are filed under it; staff pick it by name
  const product = select([['', 'すべて'], ...productOptions()], '')
  const form = el('form', { class: 'filters' }, [
    field('操作した人（スタッフ名）', actor),
    field('予約番号・登録番号', recordId),
    field('商品（在庫・自動通知の変更）', product),
    el('button', { type: 'submit' }, ['絞り込む']),
  ])
  const area = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])

  async function show(page: number): Promise<void> {
    area.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() =>
      context.api.post('adminAuditList', {
        actor: actor.value.trim() || undefined,
        recordId: recordId.value.trim() || product.value || undefined,
        page,
        pageSize: PAGE_SIZE,
      }),
    )
    area.setAttribute('aria-busy', 'false')
    if (!answer) return replaceChildren(area, ['読み込めませんでした。'])
    if (answer.entries.length === 0) {
      return replaceChildren(area, [el('p', {}, ['記録された変更はありません。'])])
    }
    replaceChildren(area, [
      el('table', { class: 'records audit' }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['日時', '操作した人', '操作', '対象', '内容'].map((h) =>
              el('th', { scope: 'col' }, [h]),
            ),
          ),
        ]),
        el('tbody', {}, answer.entries.map(row)),
      ]),
      serverPager(answer, '変更履歴のページ', area, show),
    ])
  }

  function row(entry: AuditEntry): HTMLElement {
    const cell = (label: string, text: string) => el('td', { 'data-label': label }, [text])
    return el('tr', {}, [
      cell('日時', formatTime(entry.at)),
      cell('操作した人', actorText(entry.actor)),
      cell('操作', actionText(entry)),
      cell('対象', recordText(entry)),
      cell('内容', changeText(entry)),
    ])
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault()
    void show(1)
  })
  void show(1)
  return el('section', { 'aria-labelledby': 'audit-title' }, [
    el('h2', { id: 'audit-title' }, ['変更履歴']),
    el('p', { class: 'hint' }, [
      '誰がいつ何を変更したかの記録です。お客様の個人情報は記録されません。',
    ]),
    form,
    area,
  ])
}
