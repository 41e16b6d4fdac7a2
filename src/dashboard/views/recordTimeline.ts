import { el, replaceChildren } from '../elements.js'
import { statusText, type DashboardResource, type RecordRow } from '../recordResources.js'
import { formatTime } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

export type AuditEntry = RouteAnswer<'adminAuditList'>['entries'][number]

const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  status: 'ステータス変更',
  notes: 'メモを編集',
  archive: 'アーカイブ',
  unarchive: 'アーカイブから戻す',
  delete: '削除',
  send: '再入荷メール送信',
  stock: '在庫数を変更',
  settings: '自動再入荷通知の設定を変更',
  export: '個人データを書き出し',
  erase: '個人データを削除',
  lift: '配信停止を解除',
  'synonym-add': '同義語を追加',
  'synonym-remove': '同義語を削除',
}

// why: the shared tokens and the automatic sources are named after what they are, not after
// their variables
const ACTOR_LABELS: Record<string, string> = {
  admin: '管理用トークン',
  preorder: 'アーカイブ用トークン',
  'stock-webhook': '在庫連携（Webhook）',
  'stock-reconcile': '在庫の定期照合',
  customer: 'お客様',
}

const ON_OFF: Record<string, string> = { on: 'オン', off: 'オフ' }

/** Entries shown per record: its most recent changes. */
const TIMELINE_SIZE = 20

/** Who made the change, as staff know them. */
export function actorText(actor: string): string {
  return ACTOR_LABELS[actor] ?? actor
}

/** What changed, from and to, in words (no field names). */
function changeText(resource: DashboardResource | null, entry: AuditEntry): string {
  const { from, to } = entry
  switch (entry.action) {
    case 'status':
      return resource && from && to
        ? `: 「${statusText(resource, from)}」→「${statusText(resource, to)}」`
        : ''
    case 'send':
      return to ? `（${to} 名）` : ''
    case 'stock':
      return `: ${from ?? '不明'} → ${to ?? '不明'}`
    case 'settings':
      return to ? `: ${from ? `${ON_OFF[from] ?? from} → ` : ''}${ON_OFF[to] ?? to}` : ''
    case 'export':
    case 'erase':
      return entry.record.type === 'person' && to ? `（${to} 件）` : ''
    case 'synonym-add':
      return to ? `: ${to}` : ''
    default:
      return ''
  }
}

/** One entry as a line: when, who, what. */
export function auditEntryText(resource: DashboardResource | null, entry: AuditEntry): string {
  const who = actorText(entry.actor)
  return `${formatTime(entry.at)} ${who} — ${ACTION_LABELS[entry.action]}${changeText(resource, entry)}`
}

/**
 * A record's timeline from the audit trail (who changed what, newest first), loaded when the
 * staff member opens it.
 */
export function recordTimeline(
  context: ViewContext,
  resource: DashboardResource,
  row: RecordRow,
  label: string,
): HTMLElement {
  const body = el('div', { class: 'timeline-body' })
  const details = el('details', { class: 'timeline' }, [
    el('summary', { 'aria-label': `変更履歴: ${label}` }, ['変更履歴']),
    body,
  ])
  details.addEventListener('toggle', async () => {
    if (!details.open) return
    replaceChildren(body, ['読み込み中…'])
    const answer = await context.attempt(
      () =>
        context.api.post('adminAuditList', { recordId: row.id, page: 1, pageSize: TIMELINE_SIZE }),
      details,
    )
    if (!answer) return replaceChildren(body, [])
    if (answer.entries.length === 0) {
      return replaceChildren(body, [el('p', { class: 'hint' }, ['記録された変更はありません。'])])
    }
    replaceChildren(body, [
      el(
        'ol',
        {},
        answer.entries.map((entry) => el('li', {}, [auditEntryText(resource, entry)])),
      ),
      answer.total > answer.entries.length &&
        el('p', { class: 'hint' }, [`最新 ${answer.entries.length} 件 / 全 ${answer.total} 件`]),
    ])
  })
  return details
}
