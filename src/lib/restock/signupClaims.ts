import { createHash } from 'node:crypto'
import type { Store } from '@netlify/blobs'

/**
 * One pending subscription per (e-mail, product) (D2), also when identical signups arrive at
 * once. Local conditional writes are not atomic and each local request runs in its own worker
 * thread, so neither `onlyIfNew` nor an in-process lock suffices. Instead each pair has a claim
 * blob `notify-claims/{slug}/{sha256(email)}` naming the subscription that holds the pair, and
 * a signup decides with Fischer's protocol: write your claim, wait longer than any contender
 * takes to write, read it back; the id read is the winner. See docs/decisions-local.md.
 */

/** What a claim blob holds. */
export interface SignupClaim {
  subscriptionId: string
  /** ISO time the claim was written. */
  claimedAt: string
}

/** Least wait between writing a claim and reading it back. */
export const CLAIM_SETTLE_MS = 150
/**
 * A claim this young whose subscription does not exist yet belongs to a winner that is still
 * writing it; older, it was abandoned (the winner failed) and a new signup may take over.
 */
export const CLAIM_WRITE_GRACE_MS = 30_000
/** Longest a signup waits for another signup's subscription to appear. */
export const CLAIM_WAIT_LIMIT_MS = 5_000

const CLAIM_PREFIX = 'notify-claims'

/** The claim key of a pair; the e-mail is hashed so that no address appears in a key listing. */
export function claimKey(productSlug: string, email: string): string {
  const emailHash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
  return `${CLAIM_PREFIX}/${productSlug}/${emailHash}`
}

export async function readClaim(store: Store, key: string): Promise<SignupClaim | null> {
  const claim = (await store.get(key, { type: 'json' })) as Partial<SignupClaim> | null
  if (!claim || typeof claim.subscriptionId !== 'string' || typeof claim.claimedAt !== 'string') {
    return null
  }
  return { subscriptionId: claim.subscriptionId, claimedAt: claim.claimedAt }
}

/** Whether a claim was written less than CLAIM_WRITE_GRACE_MS before `now`. */
export function isFreshClaim(claim: SignupClaim, now: Date): boolean {
  const age = now.getTime() - Date.parse(claim.claimedAt)
  return Number.isFinite(age) && age < CLAIM_WRITE_GRACE_MS
}

/** Gives a claim up after its winner failed to store the subscription, if it still names it. */
export async function releaseClaim(store: Store, key: string, subscriptionId: string) {
  const current = await readClaim(store, key)
  if (current?.subscriptionId === subscriptionId) await store.delete(key)
}

/** The claim could not be settled in time (a winner stalled); the customer may try again. */
export class SignupClaimTimeoutError extends Error {
  override name = 'SignupClaimTimeoutError'
  constructor() {
    super(
      `No signup decision within ${CLAIM_WAIT_LIMIT_MS} ms: another signup of the same e-mail ` +
        'and product holds a fresh claim but its subscription never appeared. It is released ' +
        `after ${CLAIM_WRITE_GRACE_MS} ms; retrying then succeeds.`,
    )
  }
}

export type SubscriptionState = 'live' | 'inactive' | 'missing'

export interface ClaimSignupOptions {
  store: Store
  key: string
  /** `live`: stored, pending, not archived; `inactive`: stored otherwise; `missing`: not stored. */
  stateOf: (subscriptionId: string) => Promise<SubscriptionState>
  /** A live subscription of the pair found by scanning the product (also finds unclaimed ones). */
  findLive: () => Promise<string | null>
  /** A new subscription id. */
  newId: () => string
  /** Clock (claim times, freshness, the wait limit). Default: `() => new Date()`. */
  now?: () => Date
  /** Least settle delay in milliseconds. Default: CLAIM_SETTLE_MS. */
  settleMs?: number
  /** How to wait, for tests. Default: a timer. */
  sleep?: (ms: number) => Promise<void>
}

/** `created`: this signup won and must store `subscriptionId` and send the messages. */
export interface ClaimDecision {
  subscriptionId: string
  created: boolean
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Decides a signup. A live subscription named by the claim is answered at once. A fresh claim
 * whose subscription is not stored yet is waited for, so that no answer names an id that never
 * gets stored. Otherwise this signup writes its claim (`onlyIfNew` for the first one: atomic on
 * Netlify), waits, and reads it back twice; the settle delay grows with how long this signup's
 * own read and write took, since slow blob calls (a loaded local server) slow every contender.
 * A signup that still holds the claim scans the product for a live subscription of the pair
 * (one a stalled contender stored, or one created without a claim) before it may create one.
 */
export async function claimSignup(options: ClaimSignupOptions): Promise<ClaimDecision> {
  const { store, key, stateOf } = options
  const now = options.now ?? (() => new Date())
  const sleep = options.sleep ?? timer
  const baseSettle = options.settleMs ?? CLAIM_SETTLE_MS
  const deadline = now().getTime() + CLAIM_WAIT_LIMIT_MS

  for (let round = 0; ; round++) {
    if (round > 0 && now().getTime() > deadline) throw new SignupClaimTimeoutError()
    const started = performance.now()
    const claim = await readClaim(store, key)
    if (claim) {
      const state = await stateOf(claim.subscriptionId)
      if (state === 'live') return { subscriptionId: claim.subscriptionId, created: false }
      if (state === 'missing' && isFreshClaim(claim, now())) {
        // why: its winner is still storing it; answering now could name an id never stored
        await sleep(baseSettle)
        continue
      }
    }

    const candidateId = options.newId()
    const mine: SignupClaim = { subscriptionId: candidateId, claimedAt: now().toISOString() }
    await store.setJSON(key, mine, claim ? {} : { onlyIfNew: true })
    const settle = Math.max(baseSettle, 2 * (performance.now() - started))
    if (!(await holds(store, key, candidateId, settle, sleep))) continue
    if (!(await holds(store, key, candidateId, settle, sleep))) continue

    const existing = await options.findLive()
    if (existing) {
      const repaired: SignupClaim = { subscriptionId: existing, claimedAt: now().toISOString() }
      await store.setJSON(key, repaired)
      return { subscriptionId: existing, created: false }
    }
    return { subscriptionId: candidateId, created: true }
  }
}

async function holds(
  store: Store,
  key: string,
  subscriptionId: string,
  settleMs: number,
  sleep: (ms: number) => Promise<void>,
): Promise<boolean> {
  await sleep(settleMs)
  return (await readClaim(store, key))?.subscriptionId === subscriptionId
}
