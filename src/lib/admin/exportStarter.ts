import type { Logger } from '../log.js'

/** URL path of the background function that writes CSV exports (`admin-export-background.ts`). */
export const EXPORT_FUNCTION_PATH = '/.netlify/functions/admin-export-background'

export interface ExportStarterOptions {
  /** Origin of the current deploy (the incoming request's). */
  origin: string
  /** A fresh export ticket (listExports.ts) for one run of this export. */
  ticketFor: (exportId: string) => string
  log: Logger
  /** Hands over a call still under way when we stop waiting (`context.waitUntil`). */
  defer: (work: Promise<unknown>) => void
  /** How long to wait for the platform's 202. Default: 3000 ms. */
  acceptWaitMs?: number
  /** Default: global `fetch`. */
  fetch?: typeof fetch
}

/**
 * The HTTP call that starts a run of the export function, authenticated by an export ticket. On
 * Netlify the 202 comes at once; the local emulation answers only when the function ends, so
 * after `acceptWaitMs` the call is taken as started and left to finish under `defer`. Rejects
 * when the platform refuses the call or the connection fails within that time.
 */
export function exportStarter(options: ExportStarterOptions) {
  const doFetch = options.fetch ?? fetch
  return async (exportId: string): Promise<void> => {
    const call = doFetch(new URL(EXPORT_FUNCTION_PATH, options.origin), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${options.ticketFor(exportId)}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ exportId }),
    }).then(async (response) => {
      await response.body?.cancel()
      if (!response.ok) throw new Error(`The export function answered HTTP ${response.status}`)
    })
    let timer: ReturnType<typeof setTimeout> | undefined
    const waited = new Promise<'waiting'>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), options.acceptWaitMs ?? 3000)
    })
    try {
      if ((await Promise.race([call.then(() => 'started' as const), waited])) === 'waiting') {
        options.defer(
          call.catch((error) => options.log.error('export.start_failed_late', error, { exportId })),
        )
      }
    } finally {
      clearTimeout(timer)
    }
  }
}
