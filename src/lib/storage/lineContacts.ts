import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { LINE_LOGIN_STATES_PREFIX, lineContactKey, lineLoginStateKey } from './blobLayout.js'
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

/**
 * How long the mark of a spent login state is kept: a day, far past the state's own ten-minute
 * life (a state is spent before it expires, so a day after its spending it is refused as expired
 * anyway, without its mark). The daily retention purge deletes older marks.
 */
export const SPENT_LOGIN_STATE_KEPT_MS = 24 * 60 * 60 * 1000

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
  /**
   * Deletes the marks of login states spent more than SPENT_LOGIN_STATE_KEPT_MS before `now`
   * (ms), and unreadable ones; answers how many went. Safe to run again.
   */
  pruneLoginStates(now: number): Promise<number>
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
    async pruneLoginStates(now) {
      const spentBefore = now - SPENT_LOGIN_STATE_KEPT_MS
      const { blobs } = await store.list({ prefix: LINE_LOGIN_STATES_PREFIX })
      const gone = await mapWithConcurrency(blobs, 10, async ({ key }) => {
        const mark = (await store.get(key, { type: 'json' }).catch(() => null)) as {
          spentAt?: unknown
        } | null
        // why: an unreadable mark protects nothing (its state cannot be told spent from it)
        const spentAt = typeof mark?.spentAt === 'string' ? Date.parse(mark.spentAt) : NaN
        if (spentAt >= spentBefore) return 0
        await store.delete(key)
        return 1
      })
      return gone.reduce((sum: number, one) => sum + one, 0)
    },
  }
}
