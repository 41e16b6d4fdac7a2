import type { Store } from '@netlify/blobs'
import { clearInstanceIndexes } from './recordCollection.js'
import { deliveryKeys, EXPORTS_PREFIX } from './blobLayout.js'
import type { RecordIndex } from './listing/recordIndex.js'
import { normaliseEmail } from './emailHash.js'

/**
 * Where an address may sit outside the record collections, for an erase (APPI Art. 35,
 * docs/compliance.md): the delivery snapshots of restock sends (`notif-delivery/{id}/job`,
 * `…/batches/{n}` and `…/progress`) and the record indexes (`index/{collection}/…`).
 */

interface Recipient {
  subscriptionId: string
  email: string
  lineUserId?: string
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
  return eraseRecipients(
    store,
    notificationIds,
    (recipient) => normaliseEmail(recipient.email ?? '') === address,
    (recipient) => ({ ...recipient, email: '' }),
  )
}

/**
 * Erases a LINE user from the delivery snapshots of the given notifications, as
 * `eraseFromDeliveries` an address: the entry keeps its place with an empty `lineUserId`, so a
 * delivery that continues pushes it nothing.
 */
export async function eraseLineUserFromDeliveries(
  store: Store,
  lineUserId: string,
  notificationIds: readonly string[],
): Promise<number> {
  return eraseRecipients(
    store,
    notificationIds,
    (recipient) => recipient.lineUserId === lineUserId,
    (recipient) => ({ ...recipient, lineUserId: '' }),
  )
}

async function eraseRecipients(
  store: Store,
  notificationIds: readonly string[],
  matches: (recipient: Recipient) => boolean,
  blank: (recipient: Recipient) => Recipient,
): Promise<number> {
  let changed = 0
  for (const id of notificationIds) {
    const jobKey = deliveryKeys.job(id)
    const erase = (value: Record<string, unknown>) => {
      const recipients = (value.recipients ?? value.failed) as Recipient[] | undefined
      if (!Array.isArray(recipients) || !recipients.some(matches)) return null
      const field = Array.isArray(value.recipients) ? 'recipients' : 'failed'
      return {
        ...value,
        [field]: recipients.map((recipient) => (matches(recipient) ? blank(recipient) : recipient)),
      }
    }
    if (await rewrite(store, jobKey, erase)) changed += 1
    // why: the progress record names the first failed recipients (its field `failed`, as a batch's)
    if (await rewrite(store, deliveryKeys.progress(id), erase)) changed += 1
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
 * Writes every pending change into the record indexes (they copy records), so that no index
 * blob still holds an erased address, and forgets this instance's copies. A fold that loses a
 * race to another is tried again: the other may have read a record before the erase.
 */
export async function refoldIndexes(indexes: readonly RecordIndex[]): Promise<void> {
  clearInstanceIndexes()
  for (const index of indexes) {
    for (const partition of await index.partitions()) {
      for (let attempt = 0; attempt < 5 && !(await index.fold(partition)); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)))
      }
    }
  }
}

/** Deletes every CSV export (they copy records); staff export again after an erase. */
export async function dropListExports(store: Store): Promise<void> {
  for await (const page of store.list({ prefix: EXPORTS_PREFIX, paginate: true })) {
    for (const { key } of page.blobs) await store.delete(key)
  }
}
