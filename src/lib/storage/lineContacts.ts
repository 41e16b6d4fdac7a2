import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { lineContactKey, lineLoginStateKey } from './blobLayout.js'
import type { ProductRecordRef } from './records.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * What the service keeps of a LINE user beside their subscriptions: whether the shop's official
 * account may message them (friend, from LINE Login and the `follow`/`unfollow` webhook) and which
 * subscriptions are theirs, so that an unfollow or an erase finds them without a scan. Keyed by
 * `lineUserHash`, so no LINE user id appears in a key listing; the record itself holds no id.
 * Changed only by compare-and-swap. The spent LINE Login states (replay protection) live here
 * too, one blob each, written `onlyIfNew`.
 */

/** SHA-256 (hex) of a LINE user id: names the user in keys and consent records. */
export function lineUserHash(lineUserId: string): string {
  return createHash('sha256').update(`line:${lineUserId}`).digest('hex')
}

export interface LineContact {
  /** `lineUserHash` of the user. */
  hash: string
  /** Whether the user has the shop's official account as a friend; null while unknown. */
  friend: boolean | null
  /** When `friend` was last learnt (ISO). */
  friendSeenAt: string | null
  /** LINE's `timestamp` (ms) of the newest follow or unfollow event applied; absent before one. */
  lastEventAt?: number
  /** Their LINE subscriptions. */
  subscriptions: ProductRecordRef[]
  updatedAt: string
}

const HASH = /^[0-9a-f]{64}$/

function keyOf(hash: string): string {
  if (!HASH.test(hash)) throw new Error('A LINE contact is named by a 64-hex lineUserHash')
  return lineContactKey(hash)
}

export interface LineContactBook {
  /** The contact of the user with this hash, or null. */
  get(hash: string): Promise<LineContact | null>
  /**
   * Changes (or creates) the contact by compare-and-swap, again on a concurrent change; `change`
   * receives null when there is none yet. Answers what was stored.
   */
  change(hash: string, change: (current: LineContact | null) => LineContact): Promise<LineContact>
  /** Deletes the contact (an erase). */
  remove(hash: string): Promise<void>
  /** Marks a login state's nonce spent: true the first time, false for a replay. */
  spendLoginState(nonce: string, at: number): Promise<boolean>
}

export function lineContactBook(store: Store): LineContactBook {
  return {
    async get(hash) {
      if (!HASH.test(hash)) return null
      return (await store.get(keyOf(hash), { type: 'json' })) as LineContact | null
    },
    async change(hash, change) {
      const key = keyOf(hash)
      for (;;) {
        const found = await store.getWithMetadata(key, { type: 'json' })
        const next = change((found?.data as LineContact | undefined) ?? null)
        const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
        if ((await store.setJSON(key, next, condition)).modified) return next
      }
    },
    async remove(hash) {
      if (HASH.test(hash)) await store.delete(keyOf(hash))
    },
    async spendLoginState(nonce, at) {
      if (!isUsableRecordId(nonce)) return false
      const written = await store.setJSON(
        lineLoginStateKey(nonce),
        { spentAt: new Date(at).toISOString() },
        { onlyIfNew: true },
      )
      return written.modified
    },
  }
}
