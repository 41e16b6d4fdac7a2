import { csvFileName, downloadCsv, toCsv } from '../csvExport.js'
import { el, field, replaceChildren, select } from '../elements.js'
import { rebuildingNotice } from './rebuildingNotice.js'
import { confirmAction } from '../dialogs.js'
import { CursorTrail, pagerControls, refocusPager } from '../pager.js'
import { isAllowedReservationTransition } from '../../lib/admin/statusRules.js'
import { foldForSearch, searchText } from '../../lib/storage/listing/recordSearch.js'
import { exportList } from './listExport.js'
import { csvHasVariants } from '../../lib/admin/recordCsv.js'
import {
  productFilterOf,
  productOptions,
  recordsOf,
  rowKey,
  rowLabel,
  statusText,
  type DashboardResource,
  type RecordRow,
} from '../recordResources.js'
import { focusRowAt, runBulkAction } from './bulkActions.js'
import { optedOutPendingConfirmed } from './optOutWarning.js'
import { showLoadFailure } from './loadFailure.js'
import { recordTable } from './recordTable.js'
import { recordTimeline } from './recordTimeline.js'
import type { ViewContext } from './viewContext.js'

/**
 * `{shareNote}` when the row's "tell the customer" box differs from the choice stored with the
 * notes (reservations only), so a status change sends what the box shows.
 */
function shareNoteOf(control: HTMLElement, row: RecordRow): { shareNote?: boolean } {
  const box = control.closest('tr')?.querySelector<HTMLInputElement>('input[name=shareNote]')
  if (!box || box.checked === (row.shareNote === true)) return {}
  return { shareNote: box.checked }
}

/** Rows per page; the server pages, so the browser holds one page only. */
const PAGE_SIZE = 50
/** Quiet time after the last keystroke before the search is sent to the server. */
const SEARCH_DELAY_MS = 300

/**
 * The active (non-archived) list of a resource, paged and searched by the server: filters
 * (status, product), the search (予約番号, name, e-mail), newest first, 50 a page with 前へ / 次へ;
 * status change, notes, multi-select → archive, CSV of every row the filters match (the page
 * when it holds them all, else a file the server builds, listExport.ts).
 */
export function activeListView(context: ViewContext, resource: DashboardResource): HTMLElement {
  let records: RecordRow[] = []
  // why: the page shown is filtered at once while a new search is on its way to the server
  let haystacks: string[] = []
  let shownCount = 0
  let total = 0
  let hasNext = false
  const trail = new CursorTrail()
  const selected = new Set<string>()

  const statusFilter = select(
    [['', 'すべて'], ...resource.statuses.map((s) => [s, statusText(resource, s)] as const)],
    '',
  )
  const productFilter = select([['', 'すべての商品'], ...productOptions()], '')
  const searchLabel = `${resource.idLabel}・${resource.hasName ? '名前・メール' : 'メール'}`
  const textFilter = el('input', {
    type: 'search',
    placeholder: `${searchLabel}で検索`,
  })
  const reload = el('button', { type: 'button' }, ['再読み込み'])
  const mayArchive = context.may('preorder')
  const archiveButton = el(
    'button',
    {
      type: 'button',
      disabled: true,
      'aria-describedby': mayArchive ? false : `${resource.name}-no-archive`,
    },
    ['選択した項目をアーカイブ'],
  )
  // why: the button stays where staff look for it; this says why it never becomes active
  const noArchive =
    !mayArchive &&
    el('p', { class: 'hint', id: `${resource.name}-no-archive` }, [
      'このトークンにはアーカイブの権限がないため、アーカイブできません。',
    ])
  const csvButton = el('button', { type: 'button' }, ['CSV を書き出す'])
  const selectionInfo = el('span', { 'aria-live': 'polite' }, [])
  const result = el('div', { class: 'result-area' })
  const rebuilding = rebuildingNotice()
  const listArea = el('div', { class: 'list-area', 'aria-busy': 'true' }, ['読み込み中…'])

  const root = el('section', { 'aria-labelledby': `${resource.name}-title` }, [
    el('h2', { id: `${resource.name}-title` }, [`${resource.title}（有効）`]),
    el('form', { class: 'filters', role: 'search' }, [
      field('ステータス', statusFilter),
      field('商品', productFilter),
      field(searchLabel, textFilter),
      reload,
    ]),
    el('div', { class: 'toolbar' }, [selectionInfo, archiveButton, csvButton]),
    noArchive,
    result,
    rebuilding.element,
    listArea,
  ])
  root.querySelector('form')?.addEventListener('submit', (event) => event.preventDefault())

  function visible(): RecordRow[] {
    const needle = foldForSearch(textFilter.value)
    if (!needle) return records
    return records.filter((_, index) => haystacks[index].includes(needle))
  }

  function render(): void {
    const rows = visible()
    shownCount = rows.length
    // why: a redraw (a search answer arriving) keeps the focus on the control it was on
    const focused = listArea.contains(document.activeElement)
      ? document.activeElement?.getAttribute('aria-label')
      : null
    const totalPages = Math.max(trail.page + (hasNext ? 1 : 0), Math.ceil(total / PAGE_SIZE))
    replaceChildren(listArea, [
      recordTable(resource, rows, {
        selected,
        onSelection: renderSelection,
        onStatus: changeStatus,
        onNotes: resource.hasNotes ? saveNotes : undefined,
        timeline: (row, label) => recordTimeline(context, row, label),
      }),
      totalPages > 1 &&
        pagerControls(
          trail.page,
          totalPages,
          total,
          `${resource.title}のページ`,
          async (to, pressed) => {
            if (!trail.go(to)) return
            await load()
            refocusPager(listArea, pressed)
          },
        ),
    ])
    if (focused) {
      listArea.querySelector<HTMLElement>(`[aria-label="${CSS.escape(focused)}"]`)?.focus()
    }
    renderSelection()
  }

  function renderSelection(): void {
    archiveButton.disabled = !mayArchive || selected.size === 0
    selectionInfo.textContent = `${selected.size} 件選択中 / 表示 ${shownCount} 件（全 ${total} 件）`
  }

  /** What the list asks the server for: the filters and the search, as the API names them. */
  function filters() {
    const q = textFilter.value.trim()
    return {
      status: statusFilter.value,
      ...productFilterOf(productFilter.value),
      ...(q ? { q } : {}),
    }
  }

  // why: a filter changed while a list was loading; only the newest request may draw
  let generation = 0
  let searchTimer: ReturnType<typeof setTimeout> | undefined
  let listSettled: Promise<void> = Promise.resolve()

  function load(): Promise<void> {
    listSettled = loadNow()
    return listSettled
  }

  /**
   * Waits for the list staff are looking at: a search typed but not yet sent goes now, and the
   * load in flight lands. A row action waits for it, because a list drawn after the action's
   * answer would take away the message beside the row.
   */
  async function settledList(): Promise<void> {
    if (searchTimer !== undefined) {
      clearTimeout(searchTimer)
      searchTimer = undefined
      await reloadFromStart()
    }
    await listSettled
  }

  async function loadNow(): Promise<void> {
    listArea.setAttribute('aria-busy', 'true')
    const mine = ++generation
    const cursor = trail.cursor
    const answer = await context.attempt(() =>
      context.api.post(resource.routes.list, {
        ...filters(),
        pageSize: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      }),
    )
    if (mine !== generation) return
    if (!answer) {
      // why: no count of an older list may stay beside 「読み込めませんでした」
      records = []
      haystacks = []
      selected.clear()
      archiveButton.disabled = true
      selectionInfo.textContent = ''
      rebuilding.show(false)
      return showLoadFailure(listArea)
    }
    rebuilding.show(answer.rebuilding)
    records = recordsOf(answer)
    haystacks = records.map(searchText)
    total = answer.total ?? records.length
    hasNext = trail.answered(answer.nextCursor)
    if (records.length === 0 && trail.page > 1) {
      // why: every row of the last page left (archived elsewhere); show the page before it
      trail.go(trail.page - 1)
      return load()
    }
    const present = new Set(records.map(rowKey))
    for (const key of selected) if (!present.has(key)) selected.delete(key)
    render()
    listArea.setAttribute('aria-busy', 'false')
  }

  /** The filters or the search changed: page 1 of the new list. */
  function reloadFromStart(): Promise<void> {
    trail.reset()
    return load()
  }

  /** The row of `key` as drawn now, and its control labelled `label`. */
  function rowControl(key: string, label: string): HTMLElement | null {
    const row = listArea.querySelector(`tr[data-key="${CSS.escape(key)}"]`)
    return row?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`) ?? null
  }

  /**
   * §3.2 from the row's 変更 button. Cancelling, and leaving キャンセル, ask first; afterwards
   * the message beside the row offers 元に戻す when the way back is allowed.
   */
  async function changeStatus(row: RecordRow, status: string, undo = false): Promise<void> {
    await settledList()
    const label = rowLabel(row)
    const key = rowKey(row)
    const control = rowControl(key, `ステータス: ${label}`)
    const from = statusText(resource, row.status)
    const to = statusText(resource, status)
    if (!(await optedOutPendingConfirmed(row, status))) {
      const choice = listArea.querySelector<HTMLSelectElement>(
        `tr[data-key="${CSS.escape(key)}"] select`,
      )
      if (choice) choice.value = row.status
      choice?.focus()
      return
    }
    if (!undo && resource.name === 'reservations') {
      const risky = status === 'cancelled' || row.status === 'cancelled'
      if (
        risky &&
        !(await confirmAction(
          'ステータスを変更しますか？',
          `${label}（${resource.idLabel} ${row.id}）の${resource.noun}を「${from}」から「${to}」に変更します。`,
          `「${to}」に変更する`,
          { danger: status === 'cancelled' },
        ))
      ) {
        control?.focus()
        return
      }
    }
    const near = control?.parentElement ?? undefined
    const answer = await context.attempt(
      () =>
        context.api.post(resource.routes.status, {
          id: row.id,
          productSlug: row.productSlug,
          status,
          ...(control ? shareNoteOf(control, row) : {}),
        }),
      near,
    )
    if (!answer) {
      // why: the message sits in the row, which the redraw below takes away with its text
      const refusal = message()
      // why: a refused change usually means someone else changed it; show what is stored now
      await load()
      const again = rowControl(key, `ステータス: ${label}`)
      again?.focus()
      if (again) context.notify(refusal, 'error', again.parentElement ?? undefined)
      return
    }
    replaceRecord('reservation' in answer ? answer.reservation : answer.subscription)
    const now = rowControl(key, `ステータス: ${label}`)
    now?.focus()
    const canUndo =
      !undo &&
      (resource.name !== 'reservations' || isAllowedReservationTransition(status, row.status))
    const undoButton =
      canUndo &&
      el('button', { type: 'button', class: 'link' }, [`元に戻す（${from}）`], {
        click: () => void changeStatus({ ...row, status } as RecordRow, row.status, true),
      })
    context.notify(
      `${label}: ステータスを「${to}」に変更しました。`,
      'info',
      now?.parentElement ?? undefined,
      undoButton || undefined,
    )
  }

  /** The text of the message region, to show again when the list is redrawn after an error. */
  function message(): string {
    return document.querySelector('.message')?.textContent ?? ''
  }

  async function saveNotes(row: RecordRow, notes: string, shareNote: boolean) {
    await settledList()
    const label = rowLabel(row)
    const editor = rowControl(rowKey(row), `メモ: ${label}`)
    const answer = await context.attempt(
      () =>
        context.api.post('adminReservationsStatus', {
          id: row.id,
          productSlug: row.productSlug,
          status: row.status,
          notes,
          shareNote,
        }),
      editor?.parentElement ?? undefined,
    )
    if (answer) {
      replaceRecord(answer.reservation)
      const now = rowControl(rowKey(row), `メモ: ${label}`)
      now?.focus()
      context.notify(
        answer.reservation.shareNote && answer.reservation.notes
          ? `${label}: メモを保存しました。次のメールでお客様に伝えます。`
          : `${label}: メモを保存しました。お客様には伝えません。`,
        'info',
        now?.parentElement ?? undefined,
      )
    }
  }

  function replaceRecord(updated: RecordRow): void {
    // why: status and notes change, id, name and e-mail do not, so the haystacks stay valid
    records = records.map((row) => (rowKey(row) === rowKey(updated) ? updated : row))
    render()
  }

  archiveButton.addEventListener('click', async () => {
    const rows = records.filter((row) => selected.has(rowKey(row)))
    const shownRows = [...listArea.querySelectorAll('tbody tr')]
    const firstIndex = shownRows.findIndex((tr) => selected.has(tr.getAttribute('data-key') ?? ''))
    archiveButton.disabled = true
    const panel = await runBulkAction(context, resource, 'archive', rows)
    replaceChildren(result, [panel])
    selected.clear()
    await load()
    focusRowAt(listArea, firstIndex, panel)
  })
  csvButton.addEventListener('click', () => {
    if (trail.page === 1 && !hasNext) {
      const rows = visible()
      const columns = resource.csvColumns(csvHasVariants(rows, filters().productSlug))
      downloadCsv(csvFileName(resource.title), toCsv(rows, columns))
      return
    }
    void exportList(context, resource, 'active', filters(), csvButton)
  })
  // why: a filter change sends the search typed so far too; a search still waiting would draw
  // its older answer over this one's
  const filterChanged = () => {
    clearTimeout(searchTimer)
    searchTimer = undefined
    void reloadFromStart()
  }
  statusFilter.addEventListener('change', filterChanged)
  productFilter.addEventListener('change', filterChanged)
  textFilter.addEventListener('input', () => {
    // why: busy at once, so nobody reads the page filtered locally as the server's answer
    listArea.setAttribute('aria-busy', 'true')
    render()
    clearTimeout(searchTimer)
    searchTimer = setTimeout(() => {
      searchTimer = undefined
      void reloadFromStart()
    }, SEARCH_DELAY_MS)
  })
  reload.addEventListener('click', () => void load())
  void load()
  return root
}
