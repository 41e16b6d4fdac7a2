import type { Logger } from '../log.js'
import type { ExportJob, ExportJobStore } from '../storage/exportJobStore.js'

/**
 * How long a queued or running export may go without progress before it is taken as dead:
 * one background invocation lives at most 15 minutes, and Netlify's retries come 1 and 2
 * minutes after a failure; one more minute of margin.
 */
export const EXPORT_STALL_MS = 18 * 60 * 1000

/** What staff read when the run of an export died (the dashboard shows it beside the button). */
export const EXPORT_STALLED_TEXT = '書き出しが途中で止まりました。もう一度書き出してください。'

/**
 * The job as staff should see it at `now`: a queued or running job whose last progress is older
 * than EXPORT_STALL_MS is marked failed (by compare-and-swap, so a run that did move on in the
 * meantime wins) and logged once. Any other job is returned as it is.
 */
export async function settleStalledExport(
  job: ExportJob,
  jobs: ExportJobStore,
  now: number,
  log: Logger,
): Promise<ExportJob> {
  if (job.state !== 'queued' && job.state !== 'running') return job
  const stalled = (stored: ExportJob) =>
    (stored.state === 'queued' || stored.state === 'running') &&
    now - Date.parse(stored.updatedAt) > EXPORT_STALL_MS
  if (!stalled(job)) return job
  let marked = false
  const settled = await jobs.update(job.id, (stored) => {
    marked = stalled(stored)
    return marked
      ? {
          ...stored,
          state: 'failed',
          error: EXPORT_STALLED_TEXT,
          updatedAt: new Date(now).toISOString(),
        }
      : stored
  })
  if (marked) log.warn('export.stalled', { exportId: job.id, lastProgressAt: job.updatedAt })
  return settled ?? job
}
