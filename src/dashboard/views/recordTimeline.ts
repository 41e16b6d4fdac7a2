import { auditEntryText } from '../auditTexts.js'
import { el, replaceChildren } from '../elements.js'
import type { RecordRow } from '../recordResources.js'
import type { ViewContext } from './viewContext.js'

/** Entries shown per record: its most recent changes. */
const TIMELINE_SIZE = 20

/**
 * A record's timeline from the audit trail (who changed what, newest first), loaded when the
 * staff member opens it.
 */
export function recordTimeline(context: ViewContext, row: RecordRow, label: string): HTMLElement {
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
        answer.entries.map((entry) => el('li', {}, [auditEntryText(entry)])),
      ),
      answer.total > answer.entries.length &&
        el('p', { class: 'hint' }, [`最新 ${answer.entries.length} 件 / 全 ${answer.total} 件`]),
    ])
  })
  return details
}
