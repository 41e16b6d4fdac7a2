import type { TokenGroup } from '../../lib/routes.js'
import type { AdminApi } from '../apiClient.js'

/** What every view gets from the app shell. */
export interface ViewContext {
  api: AdminApi
  /**
   * Whether the signed-in token belongs to `group` (§5): `admin` for lists, status, sending and
   * stock, `preorder` for archive, archive lists, unarchive and delete. A view offers only what
   * its token may do.
   */
  may(group: TokenGroup): boolean
  /**
   * Shows a message in the page's live region (errors are announced at once); with `near`, the
   * region is moved right after that element, where the staff member is looking; `action` (an
   * undo button) follows the text.
   */
  notify(message: string, kind?: 'info' | 'error', near?: Element, action?: HTMLElement): void
  /**
   * Runs `work`; an error is shown (next to `near` when given; a refused admin token signs out
   * instead) and null answered.
   */
  attempt<T>(work: () => Promise<T>, near?: Element): Promise<T | null>
}
