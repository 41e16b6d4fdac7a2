import { el, replaceChildren } from '../elements.js'
import { statusText, type DashboardResource, type RecordRow } from '../recordResources.js'
import { formatTime } from '../texts.js'
import type { RouteAnswer } from '../../lib/routes.js'
import type { ViewContext } from './viewContext.js'

type AuditEntry = RouteAnswer<'adminAuditList'>['entries'][number]

const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  status: 'ステータス変更',
  notes: 'メモを編集',
  archive: 'アーカイブ',
  unarchive: 'アーカイブから戻す',
  delete: '削除',
  send: '再入荷メール送信',
}

// why: the two shared tokens are named after what they are, not after their variables
const ACTOR_LABELS: Record<string, string> = {
  admin: '管理用トークン',
  preorder: 'アーカイブ用トークン',
}

/** Entries shown per record: its most recent changes. */
const TIMELINE_SIZE = 20

function entryText(resource: DashboardResource, entry: AuditEntry): string {
  const who = ACTOR_LABELS[entry.actor] ?? entry.actor
  const change =
    entry.action === 'status' && entry.from && entry.to
      ? `: 「${statusText(resource, entry.from)}」→「${statusText(resource, entry.to)}」`
      : ''
  return `${formatTime(entry.at)} ${who} — ${ACTION_LABELS[entry.action]}${change}`
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
        answer.entries.map((entry) => el('li', {}, [entryText(resource, entry)])),
      ),
      answer.total > answer.entries.length &&
        el('p', { class: 'hint' }, [`最新 ${answer.entries.length} 件 / 全 ${answer.total} 件`]),
    ])
  })
  return details
}
