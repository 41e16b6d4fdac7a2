import type { Store } from '@netlify/blobs'
import { clearInstanceSnapshots } from './recordCollection.js'
import { deliveryKeys, EXPORTS_PREFIX, SNAPSHOTS_PREFIX } from './blobLayout.js'
import { normaliseEmail } from './emailHash.js'

/**
 * Where an address may sit outside the record collections, for an erase (APPI Art. 35,
 * docs/compliance.md): the delivery snapshots of restock sends (`notif-delivery/{id}/job` and
 * `…/batches/{n}`) and the listing snapshots (`snapshots/{collection}`).
 */

interface Recipient {
  subscriptionId: string
  email: string
}

/** Replaces `email` by `''` in one JSON blob by compare-and-swap; true when it held it. */
async function rewrite(
  store: Store,
  key: string,
  change: (value: Record<string, unknown>) => Record<string, unknown> | null,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await store.getWithMetadata(key, { type: 'json' })
    if (!found) return false
    const next = change(found.data as Record<string, unknown>)
    if (next === null) return false
    const { modified } = await store.setJSON(key, next, { onlyIfMatch: found.etag })
    if (modified) return true
  }
  throw new Error(`${key} kept changing while an address was erased from it; erase again`)
}

/**
 * Erases an address from the delivery snapshots of the given notifications: its recipient entry
 * keeps its place (batches are cut by position) with an empty address, so an unfinished delivery
 * sends it nothing that can arrive; failed-batch entries lose it the same way.
 */
export async function eraseFromDeliveries(
  store: Store,
  email: string,
  notificationIds: readonly string[],
): Promise<number> {
  const address = normaliseEmail(email)
  const matches = (recipient: Recipient) => normaliseEmail(recipient.email ?? '') === address
  let changed = 0
  for (const id of notificationIds) {
    const jobKey = deliveryKeys.job(id)
    const erase = (value: Record<string, unknown>) => {
      const recipients = (value.recipients ?? value.failed) as Recipient[] | undefined
      if (!Array.isArray(recipients) || !recipients.some(matches)) return null
      const field = Array.isArray(value.recipients) ? 'recipients' : 'failed'
      return {
        ...value,
        [field]: recipients.map((recipient) =>
          matches(recipient) ? { ...recipient, email: '' } : recipient,
        ),
      }
    }
    if (await rewrite(store, jobKey, erase)) changed += 1
    for await (const page of store.list({
      prefix: deliveryKeys.batchesPrefix(id),
      paginate: true,
    })) {
      for (const { key } of page.blobs) {
        if (await rewrite(store, key, erase)) changed += 1
      }
    }
  }
  return changed
}

/**
 * Deletes every saved listing snapshot and CSV export (they copy records) and forgets this
 * instance's snapshots: the next list rebuilds them from the records, which no longer hold the
 * address. Other instances bring theirs up to date from the change journal before they save one.
 */
export async function dropListingSnapshots(store: Store): Promise<void> {
  clearInstanceSnapshots()
  // why: a CSV export copies records too; staff export again after an erase
  for (const prefix of [SNAPSHOTS_PREFIX, EXPORTS_PREFIX]) {
    for await (const page of store.list({ prefix, paginate: true })) {
      for (const { key } of page.blobs) await store.delete(key)
    }
  }
}
