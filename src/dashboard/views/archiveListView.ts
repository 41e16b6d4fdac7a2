import { csvFileName, downloadCsv, toCsv } from '../csvExport.js'
import { confirmAction } from '../dialogs.js'
import { el, field, replaceChildren, select } from '../elements.js'
import { rebuildingNotice } from './rebuildingNotice.js'
import { serverPager } from '../pager.js'
import { csvHasVariants } from '../../lib/admin/recordCsv.js'
import {
  productFilterOf,
  productOptions,
  recordsOf,
  rowKey,
  statusText,
  type DashboardResource,
  type RecordRow,
} from '../recordResources.js'
import { focusRowAt, runBulkAction, type BulkAction } from './bulkActions.js'
import { exportList } from './listExport.js'
import { showLoadFailure } from './loadFailure.js'
import { recordTable } from './recordTable.js'
import { recordTimeline } from './recordTimeline.js'
import type { ViewContext } from './viewContext.js'

/** §4.3 default page size. */
const PAGE_SIZE = 20
/** Quiet time after the last keystroke before the search is sent to the server. */
const SEARCH_DELAY_MS = 300

/**
 * The archive of a resource, paged by the server (most recently archived first): filters,
 * multi-select → unarchive or delete (after a confirmation that says it cannot be undone).
 * Needs the PREORDER token group; a token without the admin group sees no timeline and no
 * export of every row (both are admin endpoints).
 */
export function archiveListView(context: ViewContext, resource: DashboardResource): HTMLElement {
  let rows: RecordRow[] = []
  let page = 1
  const selected = new Set<string>()

  const statusFilter = select(
    [['', 'すべて'], ...resource.statuses.map((s) => [s, statusText(resource, s)] as const)],
    '',
  )
  const productFilter = select([['', 'すべての商品'], ...productOptions()], '')
  const searchLabel = `${resource.idLabel}・${resource.hasName ? '名前・メール' : 'メール'}`
  const textFilter = el('input', { type: 'search', placeholder: `${searchLabel}で検索` })
  const reload = el('button', { type: 'button' }, ['再読み込み'])
  const unarchiveButton = el('button', { type: 'button', disabled: true }, [
    '選択した項目を元に戻す',
  ])
  const deleteButton = el('button', { type: 'button', class: 'danger', disabled: true }, [
    '選択した項目を削除',
  ])
  // why: the archive is paged by the server, so the file holds the page shown; the label says so
  const csvButton = el('button', { type: 'button' }, ['このページを CSV に書き出す'])
  const mayAdmin = context.may('admin')
  const exportButton = mayAdmin && el('button', { type: 'button' }, ['すべて CSV に書き出す'])
  const selectionInfo = el('span', { 'aria-live': 'polite' }, [])
  const result = el('div', { class: 'result-area' })
  const rebuilding = rebuildingNotice()
  const listArea = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])

  const root = el('section', { 'aria-labelledby': `${resource.name}-archive-title` }, [
    el('h2', { id: `${resource.name}-archive-title` }, [`${resource.title}（アーカイブ）`]),
    el('form', { class: 'filters', role: 'search' }, [
      field('ステータス', statusFilter),
      field('商品', productFilter),
      field(searchLabel, textFilter),
      reload,
    ]),
    el('div', { class: 'toolbar' }, [
      selectionInfo,
      unarchiveButton,
      deleteButton,
      csvButton,
      exportButton,
    ]),
    !mayAdmin &&
      el('p', { class: 'hint' }, [
        '変更履歴の表示とすべての行の CSV 書き出しには、管理の権限があるトークンが必要です。',
      ]),
    result,
    rebuilding.element,
    listArea,
  ])
  root.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault())

  /** The filters and the search, as the API names them. */
  function filters() {
    const q = textFilter.value.trim()
    return {
      status: statusFilter.value,
      ...productFilterOf(productFilter.value),
      ...(q ? { q } : {}),
    }
  }

  function renderSelection(): void {
    unarchiveButton.disabled = selected.size === 0
    deleteButton.disabled = selected.size === 0
    selectionInfo.textContent = `${selected.size} 件選択中`
  }

  // why: a filter changed while a list was loading; only the newest request may draw
  let generation = 0

  async function load(): Promise<void> {
    listArea.setAttribute('aria-busy', 'true')
    const mine = ++generation
    const answer = await context.attempt(() =>
      context.api.post(resource.routes.archives, {
        page,
        pageSize: PAGE_SIZE,
        ...filters(),
      }),
    )
    if (mine !== generation) return
    if (!answer) {
      rows = []
      selected.clear()
      renderSelection()
      selectionInfo.textContent = ''
      rebuilding.show(false)
      return showLoadFailure(listArea)
    }
    rebuilding.show(answer.rebuilding)
    if (answer.total > 0 && recordsOf(answer).length === 0 && page > 1) {
      // why: every row of the last page was deleted or restored; show the page that is now last
      page = Math.max(1, answer.totalPages)
      return load()
    }
    page = answer.page
    rows = recordsOf(answer)
    selected.clear()
    replaceChildren(listArea, [
      recordTable(resource, rows, {
        selected,
        onSelection: renderSelection,
        archived: true,
        timeline: mayAdmin ? (row, label) => recordTimeline(context, row, label) : undefined,
      }),
      serverPager(answer, 'アーカイブのページ', listArea, (to) => {
        page = to
        return load()
      }),
    ])
    listArea.setAttribute('aria-busy', 'false')
    renderSelection()
  }

  async function apply(action: BulkAction): Promise<void> {
    const chosen = rows.filter((row) => selected.has(rowKey(row)))
    const firstIndex = rows.findIndex((row) => selected.has(rowKey(row)))
    if (action === 'delete') {
      const confirmed = await confirmAction(
        '完全に削除しますか？',
        `選択した ${chosen.length} 件の${resource.noun}を完全に削除します。この操作は取り消せません。`,
        '削除する',
        { danger: true },
      )
      if (!confirmed) return
    }
    const panel = await runBulkAction(context, resource, action, chosen)
    replaceChildren(result, [panel])
    await load()
    focusRowAt(listArea, firstIndex, panel)
  }

  unarchiveButton.addEventListener('click', () => void apply('unarchive'))
  deleteButton.addEventListener('click', () => void apply('delete'))
  csvButton.addEventListener('click', () => {
    downloadCsv(
      csvFileName(`${resource.title}-アーカイブ-${page}ページ`),
      toCsv(rows, resource.csvColumns(csvHasVariants(rows, filters().productSlug))),
    )
  })
  if (exportButton) {
    exportButton.addEventListener('click', () => {
      void exportList(context, resource, 'archive', filters(), exportButton)
    })
  }
  let searchTimer: ReturnType<typeof setTimeout> | undefined
  textFilter.addEventListener('input', () => {
    listArea.setAttribute('aria-busy', 'true')
    clearTimeout(searchTimer)
    searchTimer = setTimeout(() => {
      page = 1
      void load()
    }, SEARCH_DELAY_MS)
  })
  for (const filter of [statusFilter, productFilter]) {
    filter.addEventListener('change', () => {
      page = 1
      void load()
    })
  }
  reload.addEventListener('click', () => void load())
  void load()
  return root
}
