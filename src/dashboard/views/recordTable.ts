import { el, select } from '../elements.js'
import { targetTitle } from '../../lib/productCatalogue.js'
import {
  rowKey,
  rowLabel,
  statusText,
  type DashboardResource,
  type RecordRow,
} from '../recordResources.js'
import { waitingState } from '../../lib/compliance/waitingRule.js'
import { contactText, lineDeliveryText } from '../../lib/admin/recordCsv.js'
import { formatTime, NOT_WAITING_LABELS, UNSUBSCRIBE_REASON_LABELS } from '../texts.js'

export interface RecordTableOptions {
  /** Keys (`rowKey`) of the selected rows; the checkboxes change it. */
  selected: Set<string>
  /** Called after the selection changed. */
  onSelection: () => void
  /**
   * Status control and notes editor (active list); read-only text when absent. The status is
   * sent only by its 変更 button, never when the select changes (arrow keys move through it).
   */
  onStatus?: (row: RecordRow, status: string) => void
  /** Saves the notes and whether the customer's status e-mails carry them. */
  onNotes?: (row: RecordRow, notes: string, shareNote: boolean) => void
  /** Show when the row was archived. */
  archived?: boolean
  /** The row's timeline (audit trail), in a column of its own; none when absent. */
  timeline?: (row: RecordRow, label: string) => HTMLElement
}

/**
 * The rows of one page as a table; on narrow screens the CSS turns every row into a card, each
 * cell labelled by its `data-label`. Every value is text.
 */
export function recordTable(
  resource: DashboardResource,
  rows: RecordRow[],
  options: RecordTableOptions,
): HTMLElement {
  if (rows.length === 0) return el('p', { class: 'empty' }, ['該当する項目はありません。'])
  const pageBox = el('input', { type: 'checkbox', 'aria-label': 'このページをすべて選択' })
  const rowBoxes = new Map<string, HTMLInputElement>()
  // why: the page box and the row boxes show the one selection, whichever was clicked
  const syncPageBox = () => {
    const ticked = rows.filter((row) => options.selected.has(rowKey(row))).length
    pageBox.checked = ticked === rows.length
    pageBox.indeterminate = ticked > 0 && ticked < rows.length
  }
  pageBox.addEventListener('change', () => {
    for (const row of rows) {
      if (pageBox.checked) options.selected.add(rowKey(row))
      else options.selected.delete(rowKey(row))
    }
    for (const [key, box] of rowBoxes) box.checked = options.selected.has(key)
    options.onSelection()
  })
  const onRowBox = () => {
    syncPageBox()
    options.onSelection()
  }
  const headers = [
    el('th', { scope: 'col', class: 'select' }, [pageBox]),
    el('th', { scope: 'col' }, [resource.idLabel]),
    el('th', { scope: 'col' }, [resource.hasName ? '受付日時' : '登録日時']),
    resource.hasName && el('th', { scope: 'col' }, ['名前']),
    el('th', { scope: 'col' }, ['メールアドレス']),
    el('th', { scope: 'col' }, ['商品']),
    resource.hasName && el('th', { scope: 'col' }, ['数量']),
    el('th', { scope: 'col' }, ['ステータス']),
    resource.hasNotes && el('th', { scope: 'col' }, ['メモ']),
    !resource.hasNotes && el('th', { scope: 'col' }, ['通知日時']),
    options.archived && el('th', { scope: 'col' }, ['アーカイブ日時']),
    options.timeline && el('th', { scope: 'col' }, ['変更履歴']),
  ]
  const table = el('table', { class: 'records' }, [
    el('thead', {}, [el('tr', {}, headers)]),
    el(
      'tbody',
      {},
      rows.map((row) => recordRow(resource, row, options, rowBoxes, onRowBox)),
    ),
  ])
  syncPageBox()
  return table
}

function recordRow(
  resource: DashboardResource,
  row: RecordRow,
  options: RecordTableOptions,
  rowBoxes: Map<string, HTMLInputElement>,
  onRowBox: () => void,
): HTMLTableRowElement {
  const label = rowLabel(row)
  const key = rowKey(row)
  const box = el('input', {
    type: 'checkbox',
    'aria-label': `選択: ${label}`,
    checked: options.selected.has(key),
  })
  rowBoxes.set(key, box)
  box.addEventListener('change', () => {
    if (box.checked) options.selected.add(key)
    else options.selected.delete(key)
    onRowBox()
  })
  const cell = (name: string, children: (Node | string | null | undefined)[]) =>
    el('td', { 'data-label': name }, children)
  return el('tr', { 'data-id': row.id, 'data-key': key }, [
    el('td', { class: 'select' }, [box]),
    cell(resource.idLabel, [el('span', { class: 'record-id' }, [row.id])]),
    cell(resource.hasName ? '受付日時' : '登録日時', [formatTime(row.createdAt)]),
    resource.hasName && cell('名前', [row.name]),
    cell('メール', [contactText(row), lineDeliveryMark(row)]),
    cell('商品', [targetTitle(row)]),
    resource.hasName && cell('数量', [String(row.quantity ?? 1)]),
    cell('ステータス', [statusCell(resource, row, label, options)]),
    resource.hasNotes && cell('メモ', [notesCell(row, label, options)]),
    !resource.hasNotes && cell('通知日時', [formatTime(row.notifiedAt)]),
    options.archived && cell('アーカイブ日時', [formatTime(row.archivedAt)]),
    options.timeline && cell('変更履歴', [options.timeline(row, label)]),
  ])
}

/**
 * Why a pending sign-up gets no restock e-mail (the waiting rule; a suppressed address is said
 * on the 在庫 screen, which knows the suppression list), or null.
 */
function notWaitingMark(resource: DashboardResource, row: RecordRow): HTMLElement | null {
  if (resource.name !== 'subscriptions') return null
  const state = waitingState(row, false)
  if (state === null || state === 'waiting') return null
  const word = state === 'optedOut' ? '配信停止済み・再登録なし' : NOT_WAITING_LABELS[state]
  return el('span', { class: 'tag not-waiting' }, [`${word}（送信されません）`])
}

/**
 * That a LINE reservation's last message did not reach the shopper (not a friend, a failed push),
 * with when, or null.
 */
function lineDeliveryMark(row: RecordRow): HTMLElement | null {
  const text = lineDeliveryText(row)
  return text ? el('span', { class: 'tag not-waiting line-delivery' }, [text]) : null
}

/** Why a subscription ended when no person ended it (期限切れ, 購入済み), or null. */
function reasonMark(row: RecordRow): HTMLElement | null {
  const reason = row.unsubscribeReason
  if (row.status !== 'unsubscribed' || !reason) return null
  return el('span', { class: 'tag not-waiting' }, [UNSUBSCRIBE_REASON_LABELS[reason] ?? reason])
}

function statusCell(
  resource: DashboardResource,
  row: RecordRow,
  label: string,
  options: RecordTableOptions,
): Node | string {
  const onStatus = options.onStatus
  const mark = notWaitingMark(resource, row) ?? reasonMark(row)
  if (!onStatus) {
    return mark
      ? el('span', {}, [statusText(resource, row.status), mark])
      : statusText(resource, row.status)
  }
  const choices = resource.statusChoices(row.status).map((status) => {
    return [status, statusText(resource, status)] as const
  })
  const control = select(choices, row.status, { 'aria-label': `ステータス: ${label}` })
  const apply = el(
    'button',
    { type: 'button', disabled: true, 'aria-label': `ステータスを変更: ${label}` },
    ['変更'],
  )
  control.addEventListener('change', () => (apply.disabled = control.value === row.status))
  apply.addEventListener('click', () => onStatus(row, control.value))
  return el('div', { class: 'status-edit' }, [control, apply, mark])
}

function notesCell(row: RecordRow, label: string, options: RecordTableOptions): Node | string {
  const onNotes = options.onNotes
  const shared = row.shareNote === true
  if (!onNotes) return row.notes ?? ''
  const editor = el('textarea', { rows: 2, maxlength: 2000, 'aria-label': `メモ: ${label}` })
  editor.value = row.notes ?? ''
  const save = el(
    'button',
    { type: 'button', disabled: true, 'aria-label': `メモを保存: ${label}` },
    ['保存'],
  )
  // why: staff notes are internal unless ticked; the choice is stored with the notes, so the
  // box shows what the next status e-mail will do
  const share = el('input', {
    type: 'checkbox',
    name: 'shareNote',
    checked: shared,
    'aria-label': `メールでお客様にメモを伝える: ${label}`,
  })
  const changed = () =>
    (save.disabled = editor.value === (row.notes ?? '') && share.checked === shared)
  editor.addEventListener('input', changed)
  share.addEventListener('change', changed)
  save.addEventListener('click', () => onNotes(row, editor.value, share.checked))
  const shareLabel = el('label', { class: 'share-note' }, [share, 'メールでお客様にメモを伝える'])
  return el('div', { class: 'notes' }, [
    editor,
    save,
    shareLabel,
    shared &&
      row.notes &&
      el('p', { class: 'note-shared' }, ['このメモは次のメールでお客様に伝わります。']),
  ])
}
