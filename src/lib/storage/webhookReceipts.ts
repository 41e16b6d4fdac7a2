import type { Store } from '@netlify/blobs'
import { webhookReceiptKey } from './blobLayout.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * Replay protection of signed webhooks: `webhook-receipts/{source}/{message id}`, written with
 * `onlyIfNew` when a message is first accepted. A message seen before (a replay, or the sender's
 * own retry of a message already handled) is answered without being handled again. A receipt
 * holds no payload, only when it was received.
 */

/** True when this message id was not received before (and is now recorded). */
export async function recordWebhookReceipt(
  store: Store,
  source: string,
  messageId: string,
  receivedAt: string,
): Promise<boolean> {
  if (!isUsableRecordId(messageId)) return false
  const key = webhookReceiptKey(source, messageId)
  return (await store.setJSON(key, { receivedAt }, { onlyIfNew: true })).modified
}

/** Removes a receipt, so that a message whose handling failed can be delivered again. */
export async function forgetWebhookReceipt(
  store: Store,
  source: string,
  messageId: string,
): Promise<void> {
  if (!isUsableRecordId(messageId)) return
  await store.delete(webhookReceiptKey(source, messageId))
}
