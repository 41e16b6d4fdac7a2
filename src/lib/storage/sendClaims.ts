import type { Store } from '@netlify/blobs'
import { mapWithConcurrency } from '../concurrency.js'
import { sendClaimKey, sendLockKey } from './blobLayout.js'
import { isUsableRecordId } from './recordIds.js'

/**
 * Who a restock send may e-mail, decided atomically:
 * - `send-locks/{productSlug}`: the one send (or wave) choosing this product's recipients right
 *   now. Taken with `onlyIfNew`, or `onlyIfMatch` over a released or expired lock; released by
 *   compare-and-swap. A second, different send meanwhile is refused (409).
 * - `send-claims/{productSlug}/{subscriptionId}`: the notice a subscriber was claimed by,
 *   written `onlyIfNew` (or `onlyIfMatch` over a claim the caller may take over), so that a
 *   subscriber is in at most one open send or wave whatever runs at once.
 */

export interface SendLock {
  /** The notification choosing recipients. */
  holderId: string
  takenAt: string
  releasedAt: string | null
}

/**
 * A lock older than this is taken over: choosing recipients happens inside one function call,
 * and Netlify ends a synchronous function after 60 s.
 */
export const SEND_LOCK_EXPIRY_MS = 60_000

const CLAIM_CONCURRENCY = 20

export type LockOutcome = { taken: true } | { taken: false; holderId: string }

function lockKey(productSlug: string): string {
  if (!isUsableRecordId(productSlug)) throw new Error(`Unusable product slug ${productSlug}`)
  return sendLockKey(productSlug)
}

/** Takes the product's send lock for `holderId` (again, if it holds it already). */
async function takeSendLock(
  store: Store,
  productSlug: string,
  holderId: string,
  now: number,
): Promise<LockOutcome> {
  const key = lockKey(productSlug)
  const mine: SendLock = { holderId, takenAt: new Date(now).toISOString(), releasedAt: null }
  for (;;) {
    const found = await store.getWithMetadata(key, { type: 'json' })
    if (found) {
      const lock = found.data as SendLock
      const free =
        lock.holderId === holderId ||
        lock.releasedAt !== null ||
        now - Date.parse(lock.takenAt) >= SEND_LOCK_EXPIRY_MS
      if (!free) return { taken: false, holderId: lock.holderId }
    }
    const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
    if ((await store.setJSON(key, mine, condition)).modified) return { taken: true }
  }
}

/** Releases the lock if `holderId` still holds it. */
async function releaseSendLock(
  store: Store,
  productSlug: string,
  holderId: string,
  now: number,
): Promise<void> {
  const key = lockKey(productSlug)
  for (;;) {
    const found = await store.getWithMetadata(key, { type: 'json' })
    const lock = found?.data as SendLock | undefined
    if (!found || !lock || lock.holderId !== holderId || lock.releasedAt !== null) return
    const released: SendLock = { ...lock, releasedAt: new Date(now).toISOString() }
    if ((await store.setJSON(key, released, { onlyIfMatch: found.etag })).modified) return
  }
}

export interface SubscriberClaim {
  /** The notification the subscriber is claimed by. */
  holderId: string
  claimedAt: string
}

export interface ClaimRequest {
  productSlug: string
  /** Candidates, in the order they should be claimed (oldest sign-up first). */
  subscriptionIds: readonly string[]
  holderId: string
  /** At most this many are claimed; default: all. */
  limit?: number
  /** Whether a claim held by another notice may be taken over (its notice is over). */
  mayTakeOver: (claim: SubscriberClaim) => Promise<boolean>
  now: number
}

/**
 * Claims subscribers for `holderId`, in order, up to `limit`: answers the ids it holds
 * (claimed now, or by the same holder before: a re-run of one notice claims the same people).
 */
async function claimSubscribers(store: Store, request: ClaimRequest): Promise<string[]> {
  const limit = request.limit ?? request.subscriptionIds.length
  const won: string[] = []
  let next = 0
  while (won.length < limit && next < request.subscriptionIds.length) {
    const batch = request.subscriptionIds.slice(next, next + (limit - won.length))
    next += batch.length
    const results = await mapWithConcurrency(batch, CLAIM_CONCURRENCY, (id) =>
      claimOne(store, request, id),
    )
    batch.forEach((id, index) => {
      if (results[index]) won.push(id)
    })
  }
  return won
}

async function claimOne(store: Store, request: ClaimRequest, subscriptionId: string) {
  const key = sendClaimKey(request.productSlug, subscriptionId)
  const mine: SubscriberClaim = {
    holderId: request.holderId,
    claimedAt: new Date(request.now).toISOString(),
  }
  // why: most subscribers were never claimed, so one conditional write settles them
  if ((await store.setJSON(key, mine, { onlyIfNew: true })).modified) return true
  for (;;) {
    const found = await store.getWithMetadata(key, { type: 'json' })
    if (found) {
      const claim = found.data as SubscriberClaim
      if (claim.holderId === request.holderId) return true
      if (!(await request.mayTakeOver(claim))) return false
    }
    const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
    if ((await store.setJSON(key, mine, condition)).modified) return true
  }
}

/** The send locks and subscriber claims of the records store. */
export interface SendClaimBook {
  /** Takes the product's send lock for `holderId` (again, if it holds it already). */
  takeLock(productSlug: string, holderId: string, now: number): Promise<LockOutcome>
  /** Releases the lock if `holderId` still holds it. */
  releaseLock(productSlug: string, holderId: string, now: number): Promise<void>
  /**
   * Claims subscribers for `holderId`, in order, up to `limit`: answers the ids it holds
   * (claimed now, or by the same holder before: a re-run of one notice claims the same people).
   */
  claim(request: ClaimRequest): Promise<string[]>
}

export function sendClaimBook(store: Store): SendClaimBook {
  return {
    takeLock: (productSlug, holderId, now) => takeSendLock(store, productSlug, holderId, now),
    releaseLock: (productSlug, holderId, now) => releaseSendLock(store, productSlug, holderId, now),
    claim: (request) => claimSubscribers(store, request),
  }
}
