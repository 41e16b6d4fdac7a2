import { csvFileName, downloadCsv, toCsv } from '../csvExport.js'
import { el, field, replaceChildren, select } from '../elements.js'
import { pageOf, pagerControls } from '../pager.js'
import {
  productOptions,
  recordsOf,
  rowKey,
  rowLabel,
  statusText,
  type DashboardResource,
  type RecordRow,
} from '../recordResources.js'
import { runBulkAction } from './bulkActions.js'
import { showLoadFailure } from './loadFailure.js'
import { recordTable } from './recordTable.js'
import type { ViewContext } from './viewContext.js'

/** Rows drawn at once; the whole list stays in memory, so filtering and paging are instant. */
const PAGE_SIZE = 50

/**
 * The active (non-archived) list of a resource: server filters (status, product), a quick text
 * filter on name / e-mail, newest first, paged in the browser; status change, notes, multi-select
 * → archive, CSV of every row the filters match.
 */
export function activeListView(context: ViewContext, resource: DashboardResource): HTMLElement {
  let records: RecordRow[] = []
  // why: lower-cased once per load, so a keystroke over thousands of records only compares
  let haystacks: string[] = []
  let shownCount = 0
  let page = 1
  const selected = new Set<string>()

  const statusFilter = select(
    [['', 'すべて'], ...resource.statuses.map((s) => [s, statusText(resource, s)] as const)],
    '',
  )
  const productFilter = select([['', 'すべての商品'], ...productOptions()], '')
  const textFilter = el('input', {
    type: 'search',
    placeholder: resource.hasName ? '名前・メールで絞り込み' : 'メールで絞り込み',
  })
  const reload = el('button', { type: 'button' }, ['再読み込み'])
  const archiveButton = el('button', { type: 'button', disabled: true }, [
    '選択した項目をアーカイブ',
  ])
  const csvButton = el('button', { type: 'button' }, ['CSV を書き出す'])
  const selectionInfo = el('span', { 'aria-live': 'polite' }, [])
  const result = el('div', { class: 'result-area' })
  const listArea = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])

  const root = el('section', { 'aria-labelledby': `${resource.name}-title` }, [
    el('h2', { id: `${resource.name}-title` }, [`${resource.title}（有効）`]),
    el('form', { class: 'filters', role: 'search' }, [
      field('ステータス', statusFilter),
      field('商品', productFilter),
      field(resource.hasName ? '名前・メール' : 'メール', textFilter),
      reload,
    ]),
    el('div', { class: 'toolbar' }, [selectionInfo, archiveButton, csvButton]),
    result,
    listArea,
  ])
  root.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault())

  function visible(): RecordRow[] {
    const needle = textFilter.value.trim().toLowerCase()
    if (!needle) return records
    return records.filter((_, index) => haystacks[index].includes(needle))
  }

  function render(): void {
    const rows = visible()
    shownCount = rows.length
    const shown = pageOf(rows, page, PAGE_SIZE)
    page = shown.page
    replaceChildren(listArea, [
      recordTable(resource, shown.items, {
        selected,
        onSelection: renderSelection,
        onStatus: changeStatus,
        onNotes: resource.hasNotes ? saveNotes : undefined,
      }),
      rows.length > PAGE_SIZE &&
        pagerControls(
          shown.page,
          shown.totalPages,
          rows.length,
          `${resource.title}のページ`,
          (to) => {
            page = to
            render()
          },
        ),
    ])
    listArea.setAttribute('aria-busy', 'false')
    renderSelection()
  }

  function renderSelection(): void {
    archiveButton.disabled = selected.size === 0
    selectionInfo.textContent = `${selected.size} 件選択中 / 表示 ${shownCount} 件`
  }

  async function load(): Promise<void> {
    listArea.setAttribute('aria-busy', 'true')
    const answer = await context.attempt(() =>
      context.api.post(resource.routes.list, {
        status: statusFilter.value,
        productSlug: productFilter.value,
      }),
    )
    if (!answer) return showLoadFailure(listArea)
    records = recordsOf(answer)
    haystacks = records.map((row) => `${row.name ?? ''}\n${row.email}`.toLowerCase())
    const present = new Set(records.map(rowKey))
    for (const key of selected) if (!present.has(key)) selected.delete(key)
    render()
  }

  async function changeStatus(row: RecordRow, status: string, control: HTMLSelectElement) {
    control.disabled = true
    const answer = await context.attempt(() =>
      context.api.post(resource.routes.status, {
        id: row.id,
        productSlug: row.productSlug,
        status,
      }),
    )
    if (answer) {
      context.notify(
        `${rowLabel(row)}: ステータスを「${statusText(resource, status)}」に変更しました。`,
      )
      replaceRecord('reservation' in answer ? answer.reservation : answer.subscription)
    } else {
      // why: a refused change usually means someone else changed it; show what is stored now
      await load()
    }
  }

  async function saveNotes(row: RecordRow, notes: string) {
    const answer = await context.attempt(() =>
      context.api.post('adminReservationsStatus', {
        id: row.id,
        productSlug: row.productSlug,
        status: row.status,
        notes,
      }),
    )
    if (answer) {
      context.notify(`${rowLabel(row)}: メモを保存しました。`)
      replaceRecord(answer.reservation)
    }
  }

  function replaceRecord(updated: RecordRow): void {
    // why: status and notes change, name and e-mail do not, so the haystacks stay valid
    records = records.map((row) => (rowKey(row) === rowKey(updated) ? updated : row))
    render()
  }

  archiveButton.addEventListener('click', async () => {
    const rows = records.filter((row) => selected.has(rowKey(row)))
    archiveButton.disabled = true
    const panel = await runBulkAction(context, resource, 'archive', rows)
    replaceChildren(result, [panel])
    selected.clear()
    await load()
  })
  csvButton.addEventListener('click', () => {
    downloadCsv(csvFileName(resource.name), toCsv(visible(), resource.csvColumns))
  })
  statusFilter.addEventListener('change', () => void load())
  productFilter.addEventListener('change', () => void load())
  textFilter.addEventListener('input', () => {
    page = 1
    render()
  })
  reload.addEventListener('click', () => void load())
  void load()
  return root
}
