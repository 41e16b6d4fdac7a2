import type { AdminApi } from '../apiClient.js'

/** What every view gets from the app shell. */
export interface ViewContext {
  api: AdminApi
  /** Shows a message in the page's live region (errors are announced at once). */
  notify(message: string, kind?: 'info' | 'error'): void
  /**
   * Runs `work`; an error is shown (a refused admin token signs out instead) and null answered.
   */
  attempt<T>(work: () => Promise<T>): Promise<T | null>
}
