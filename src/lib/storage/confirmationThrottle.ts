import type { Store } from '@netlify/blobs'
import { confirmationSendKey } from './blobLayout.js'
import { emailHash } from './emailHash.js'

/**
 * At most one confirmation e-mail per address per interval (double opt-in re-sends):
 * `confirmation-sends/{emailHash}` holds when the last one was sent, changed only by
 * compare-and-swap, so of simultaneous requests exactly one may send.
 */
/** The key of an address's throttle blob (erase deletes it). */
export function confirmationThrottleKey(email: string): string {
  return confirmationSendKey(emailHash(email))
}

/** True when no confirmation went to `email` in the last `intervalMs` (and `now` is now recorded). */
export async function takeConfirmationSlot(
  store: Store,
  email: string,
  now: Date,
  intervalMs: number,
): Promise<boolean> {
  const key = confirmationThrottleKey(email)
  const found = await store.getWithMetadata(key, { type: 'json' })
  const last = (found?.data as { lastSentAt?: string } | null)?.lastSentAt
  if (last && now.getTime() - Date.parse(last) < intervalMs) return false
  const condition = found?.etag ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
  const { modified } = await store.setJSON(key, { lastSentAt: now.toISOString() }, condition)
  return modified
}
