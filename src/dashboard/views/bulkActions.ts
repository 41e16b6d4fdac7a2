import { el } from '../elements.js'
import { rowLabel, type DashboardResource, type RecordRow } from '../recordResources.js'
import { japaneseError } from '../texts.js'
import type { ViewContext } from './viewContext.js'

export type BulkAction = 'archive' | 'unarchive' | 'delete'

const DONE_TEXT: Record<BulkAction, string> = {
  archive: 'アーカイブしました',
  unarchive: 'アーカイブから戻しました',
  delete: '削除しました',
}
/** D5: most items per request. */
const MAX_ITEMS = 100

/** The ids an answer reports done, whichever of the three actions it answers. */
function doneIds(
  answer: { archivedIds: string[] } | { unarchivedIds: string[] } | { deletedIds: string[] },
): string[] {
  if ('archivedIds' in answer) return answer.archivedIds
  return 'unarchivedIds' in answer ? answer.unarchivedIds : answer.deletedIds
}

/**
 * Applies `action` to `rows` (100 per request, PREORDER token group) and answers a panel saying
 * how many succeeded and, per item, what failed; null when nothing could be sent.
 */
export async function runBulkAction(
  context: ViewContext,
  resource: DashboardResource,
  action: BulkAction,
  rows: RecordRow[],
): Promise<HTMLElement | null> {
  const done: string[] = []
  const errors: { id: string; error: string }[] = []
  const sent = await context.attempt(async () => {
    for (let start = 0; start < rows.length; start += MAX_ITEMS) {
      const ids = rows
        .slice(start, start + MAX_ITEMS)
        .map(({ id, productSlug }) => ({ id, productSlug }))
      const answer = await context.api.post(resource.routes[action], { ids })
      done.push(...doneIds(answer))
      errors.push(...(answer.errors ?? []))
    }
    return true
  })
  if (!sent && done.length === 0 && errors.length === 0) return null
  const byId = new Map(rows.map((row) => [row.id, row]))
  return el('div', { class: errors.length ? 'result has-errors' : 'result', role: 'status' }, [
    el('p', {}, [`${done.length} 件の${resource.noun}を${DONE_TEXT[action]}。`]),
    errors.length > 0 &&
      el('div', {}, [
        el('p', {}, [`${errors.length} 件は処理できませんでした:`]),
        el(
          'ul',
          { class: 'item-errors' },
          errors.map((item) => {
            const row = byId.get(item.id)
            return el('li', { 'data-id': item.id }, [
              `${row ? rowLabel(row) : ''}（${item.id}）: ${japaneseError(item.error, 200)}`,
            ])
          }),
        ),
      ]),
  ])
}
