import { saveFile } from '../csvExport.js'
import type { DashboardResource } from '../recordResources.js'
import { ApiError } from '../apiClient.js'
import type { ViewContext } from './viewContext.js'

/** How often the progress of an export is asked for. */
const POLL_MS = 1000
/** Longest a background export may take (Netlify's background limit). */
const GIVE_UP_MS = 15 * 60 * 1000
/** Above this a file is fetched part by part (one answer streams at most 15 MB, listExports.ts). */
const WHOLE_FILE_BYTES = 15_000_000

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The CSV of a list larger than the page the browser holds: the server writes it in the
 * background (POST /api/admin/exports); this shows the progress next to `button` in Japanese and
 * saves the file when it is done.
 */
export async function exportList(
  context: ViewContext,
  resource: DashboardResource,
  kind: 'active' | 'archive',
  filters: { status?: string; productSlug?: string; variant?: string; q?: string },
  button: HTMLButtonElement,
): Promise<void> {
  const list =
    `${resource.name === 'reservations' ? 'reservations' : 'notify'}${kind === 'archive' ? '-archive' : ''}` as const
  button.disabled = true
  try {
    context.notify('CSV の書き出しを準備しています…', 'info', button)
    const created = await context.attempt(
      () => context.api.post('adminExports', { list, ...filters }),
      button,
    )
    if (!created) return
    const started = Date.now()
    let job = created.export
    while (job.state === 'queued' || job.state === 'running') {
      if (Date.now() - started > GIVE_UP_MS) {
        context.notify('CSV の書き出しが時間内に終わりませんでした。', 'error', button)
        return
      }
      await wait(POLL_MS)
      const answer = await context.attempt(
        () => context.api.post('adminExportsStatus', { exportId: job.exportId }),
        button,
      )
      if (!answer) return
      job = answer.export
      if (job.state === 'running' && job.totalRows !== null) {
        context.notify(
          `CSV を書き出しています… ${job.writtenRows.toLocaleString('ja-JP')} / ${job.totalRows.toLocaleString('ja-JP')} 件`,
          'info',
          button,
        )
      }
    }
    if (job.state === 'failed' || !job.downloadPath) {
      context.notify(job.error ?? 'CSV を書き出せませんでした。', 'error', button)
      return
    }
    const path = job.downloadPath
    const parts = job.bytes > WHOLE_FILE_BYTES ? job.parts : 0
    const files = await context.attempt(
      () =>
        parts === 0
          ? Promise.all([context.api.file(path)])
          : Promise.all(
              Array.from({ length: parts }, (_, index) =>
                context.api.file(`${path}&part=${index + 1}`),
              ),
            ),
      button,
    )
    if (!files) return
    saveFile(job.fileName, new Blob(files, { type: 'text/csv;charset=utf-8' }))
    context.notify(
      `CSV を書き出しました（${(job.totalRows ?? 0).toLocaleString('ja-JP')} 件）。`,
      'info',
      button,
    )
  } catch (error) {
    context.notify(error instanceof ApiError ? error.message : String(error), 'error', button)
  } finally {
    button.disabled = false
  }
}
