import { createHash } from 'node:crypto'
import type { NotificationHistory } from '../storage/records.js'
import type { HistoryRepository } from '../storage/repositories.js'
import { isRunning, noticeStateOf } from './noticeState.js'
import type { SendRequest } from './sendRequest.js'
import type { ProductTarget } from '../productCatalogue.js'

/**
 * The ids of restock notices: `notif_<uuid>` derived from what is sent, so that two identical
 * sends, even simultaneous ones that cannot see each other, agree on one notification: same job,
 * same batches, same idempotency keys (D9).
 */

/**
 * The id of a staff member's notice: from the notice (product, title, body) and how many
 * identical notices were delivered before.
 */
export function restockNotificationId(request: SendRequest, earlierIdenticalSends: number): string {
  const notice = [request.productSlug, request.emailTitle, request.emailBody]
  // why: a product without variants keeps the ids it always had
  if (request.variant !== undefined) notice.push(request.variant)
  return notificationIdOf(JSON.stringify(notice), `\n${earlierIdenticalSends}`)
}

/** The notification id of wave `wave` of the `episode`-th rise of a product's (or variant's) stock. */
export function waveNotificationId(
  { productSlug, variant }: ProductTarget,
  episode: number,
  wave: number,
): string {
  const parts: (string | number)[] = ['stock-wave', productSlug, episode, wave]
  if (variant !== undefined) parts.push(variant)
  return notificationIdOf(JSON.stringify(parts))
}

/** The notification id of the send staff scheduled as `scheduledSendId` (storage/scheduledSends.ts). */
export function scheduledNotificationId(scheduledSendId: string): string {
  return notificationIdOf(JSON.stringify(['scheduled-send', scheduledSendId]))
}

/** `notif_<uuid>` (version-4 shaped) from the SHA-256 of `parts`. */
function notificationIdOf(...parts: string[]): string {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part)
  const digest = hash.digest('hex')
  const hex = `${digest.slice(0, 12)}4${digest.slice(13, 16)}8${digest.slice(17, 32)}`
  return `notif_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * A notification still being delivered, or one that reached nobody (its delivery never started):
 * safe to redo. Without an e-mail provider such a notice is `recorded` with `sentCount` 0 (its
 * LINE delivery never started, and nobody was recorded either).
 */
export function isOpen(history: NotificationHistory): boolean {
  const state = noticeStateOf(history)
  return (
    isRunning(state) || ((state === 'failed' || state === 'recorded') && history.sentCount === 0)
  )
}

/**
 * The id of a staff member's send. An identical notice still being delivered is the same send
 * repeated (a double click, a retried request): its id is answered and nobody is e-mailed twice.
 * Identical notices delivered before count up, so sending the same text again later is a new
 * notification.
 */
export async function notificationIdFor(
  request: SendRequest,
  history: Pick<HistoryRepository, 'get'>,
): Promise<{ id: string; open: NotificationHistory | null }> {
  for (let earlier = 0; ; earlier++) {
    const id = restockNotificationId(request, earlier)
    const existing = await history.get({ id })
    if (!existing) return { id, open: null }
    if (isOpen(existing)) return { id, open: existing }
  }
}
