import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { IDEMPOTENCY_KEYS_PREFIX, idempotencyKeyMark } from './blobLayout.js'

/**
 * What an `Idempotency-Key` request header remembers (Stripe's and the IETF draft's semantics):
 * the first request sent with the key, as a fingerprint, and its answer once made. One blob per
 * key, `idempotency-keys/{operation}/{day}/{sha256(key)}`, written `onlyIfNew` by the first
 * request and completed by compare-and-swap, so of simultaneous requests with one key exactly one
 * runs. A key is remembered for the UTC day it was first used and the next (24 to 48 hours);
 * the retention purge then deletes its day.
 */

interface KeyMark {
  /** SHA-256 of the key and the request (idempotentRequest.ts): "same request" without the request. */
  fingerprint: string
  startedAt: string
  /** The success answer's fields; null while the first request is under way. */
  answer: Record<string, unknown> | null
}

/**
 * `new`: this request runs, then `finish`es with its answer or `release`s the key (a failure is
 * not remembered, so it may be sent again); `answered`: the same request was answered before;
 * `other-request`: the key was used for another request; `in-progress`: the first request with
 * the key is still running.
 */
export type KeyStart =
  | {
      state: 'new'
      finish(answer: Record<string, unknown>): Promise<void>
      release(): Promise<void>
    }
  | { state: 'answered'; answer: Record<string, unknown> }
  | { state: 'other-request' }
  | { state: 'in-progress' }

/** A first request not finished this long after it started died (a function's time limit is 60 s). */
export const KEY_IN_PROGRESS_LIMIT_MS = 60_000

const DAY_MS = 24 * 60 * 60_000
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

export interface IdempotencyKeyBook {
  begin(operation: string, key: string, fingerprint: string, now: number): Promise<KeyStart>
  /** Deletes the marks of days before yesterday (UTC); answers how many went. */
  prune(now: number): Promise<number>
}

function isMark(value: unknown): value is KeyMark {
  const mark = value as Partial<KeyMark> | null
  return typeof mark?.fingerprint === 'string' && typeof mark.startedAt === 'string'
}

export function idempotencyKeyBook(store: Store): IdempotencyKeyBook {
  const started = (blobKey: string, mark: KeyMark): KeyStart => ({
    state: 'new',
    async finish(answer) {
      // why: only this request writes the answer; a mark taken over meanwhile is left alone
      const found = await store.getWithMetadata(blobKey, { type: 'json' })
      if (!found?.etag || !isMark(found.data) || found.data.startedAt !== mark.startedAt) return
      await store.setJSON(blobKey, { ...mark, answer }, { onlyIfMatch: found.etag })
    },
    async release() {
      const found = await store.getWithMetadata(blobKey, { type: 'json' })
      if (isMark(found?.data) && found.data.startedAt === mark.startedAt && !found.data.answer) {
        await store.delete(blobKey)
      }
    },
  })
  /** What a mark found says to a request with `fingerprint`, or null when it may be taken over. */
  const judge = (found: unknown, fingerprint: string, now: number): KeyStart | null => {
    // why: a damaged mark holds nothing and is replaced
    if (!isMark(found)) return null
    if (found.fingerprint !== fingerprint) return { state: 'other-request' }
    if (found.answer) return { state: 'answered', answer: found.answer }
    if (now - Date.parse(found.startedAt) < KEY_IN_PROGRESS_LIMIT_MS)
      return { state: 'in-progress' }
    return null
  }
  return {
    async begin(operation, key, fingerprint, now) {
      const mark: KeyMark = { fingerprint, startedAt: new Date(now).toISOString(), answer: null }
      const yesterday = idempotencyKeyMark(operation, dayOf(now - DAY_MS), key)
      const earlier = await store.get(yesterday, { type: 'json' })
      if (earlier !== null) {
        const seen = judge(earlier, fingerprint, now)
        if (seen) return seen
      }
      const today = idempotencyKeyMark(operation, dayOf(now), key)
      for (;;) {
        if ((await store.setJSON(today, mark, { onlyIfNew: true })).modified) {
          return started(today, mark)
        }
        const found = await store.getWithMetadata(today, { type: 'json' })
        if (!found) continue
        const seen = judge(found.data, fingerprint, now)
        if (seen) return seen
        if ((await store.setJSON(today, mark, { onlyIfMatch: found.etag })).modified) {
          return started(today, mark)
        }
      }
    },
    async prune(now) {
      const yesterday = dayOf(now - DAY_MS)
      const { blobs } = await store.list({ prefix: IDEMPOTENCY_KEYS_PREFIX })
      const old = blobs.filter(({ key }) => {
        const day = key.slice(IDEMPOTENCY_KEYS_PREFIX.length).split('/')[1] ?? ''
        return day < yesterday
      })
      await mapWithConcurrency(old, 10, ({ key }) => store.delete(key))
      return old.length
    },
  }
}
