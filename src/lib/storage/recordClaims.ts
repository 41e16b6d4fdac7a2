import type { Store } from '@netlify/blobs'
import { MissingEtagError } from './recordCollection.js'

/**
 * One record per key, decided atomically: e.g. one pending subscription per (e-mail, product).
 * A claim blob names the record that holds the key. It is created with `onlyIfNew` and replaced
 * only with `onlyIfMatch` on the ETag it was read at, so of any number of simultaneous
 * contenders exactly one wins; the others answer the winner's record. No waiting is involved
 * unless a claim names a record that is not stored yet (its winner is writing it right now).
 */

/** What a claim blob holds. */
export interface RecordClaim {
  /** Id of the record that holds the key. */
  holderId: string
  /** ISO time the claim was written. */
  claimedAt: string
}

/**
 * `live`: the holder answers this request; `ended`: the holder no longer holds the key (a new
 * record may take it); `missing`: the holder is not stored (yet).
 */
export type HolderState = 'live' | 'ended' | 'missing'

/** A claim names a record that never appeared; it is taken over after CLAIM_WRITE_GRACE_MS. */
const CLAIM_WRITE_GRACE_MS = 3_000
const POLL_MS = 50

export interface ClaimOptions {
  store: Store
  /** The claim blob's key. */
  key: string
  /** What the record a claim names is now. */
  holderState: (claim: RecordClaim) => Promise<HolderState>
  /** A new record id, used when this request wins. */
  newId: () => string
  /**
   * Called when the key has never been claimed: a live record that holds it without a claim
   * (stored before claims existed, imported), which then gets the claim. Default: none.
   */
  adopt?: () => Promise<string | null>
  /** The clock, ms since the epoch. */
  now: () => number
}

/** `won`: this request holds the key and must store `holderId`; else `holderId` is the holder. */
export interface ClaimOutcome {
  holderId: string
  won: boolean
}

/**
 * Decides who holds `key`. A live holder is answered. A holder that ended, or that is missing
 * although its claim is older than CLAIM_WRITE_GRACE_MS (its winner failed before storing it), is
 * replaced by compare-and-swap. A holder missing under a young claim is waited for.
 */
export async function claimRecord(options: ClaimOptions): Promise<ClaimOutcome> {
  const { store, key } = options
  const { now } = options
  for (;;) {
    const found = await store.getWithMetadata(key, { type: 'text' })
    const claim = found ? parseClaim(found.data) : null
    if (claim) {
      const state = await options.holderState(claim)
      if (state === 'live') return { holderId: claim.holderId, won: false }
      if (state === 'missing' && now() - Date.parse(claim.claimedAt) < CLAIM_WRITE_GRACE_MS) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        continue
      }
    }
    if (found && !found.etag) throw new MissingEtagError(key)
    const adopted = found ? null : ((await options.adopt?.()) ?? null)
    const mine: RecordClaim = {
      holderId: adopted ?? options.newId(),
      claimedAt: new Date(now()).toISOString(),
    }
    // why: a damaged claim blob holds nothing and is replaced like an ended one
    const condition = found ? { onlyIfMatch: found.etag } : { onlyIfNew: true }
    const { modified } = await store.setJSON(key, mine, condition)
    if (modified) return { holderId: mine.holderId, won: adopted === null }
  }
}

export interface ClaimedCreateOptions extends ClaimOptions {
  /** Stores the record of a won claim. */
  create: (id: string) => Promise<void>
  /** Deletes a record stored under a claim that was taken over meanwhile. */
  remove: (id: string) => Promise<void>
}

/**
 * `claimRecord`, then stores the winner's record and checks the claim still names it: a winner
 * stalled past CLAIM_WRITE_GRACE_MS may have been taken over, and then withdraws its record and
 * answers the holder instead, so the key never ends up with two records.
 */
export async function claimAndCreate(options: ClaimedCreateOptions): Promise<ClaimOutcome> {
  const outcome = await claimRecord(options)
  if (!outcome.won) return outcome
  await options.create(outcome.holderId)
  if (await holdsClaim(options.store, options.key, outcome.holderId)) return outcome
  await options.remove(outcome.holderId)
  return claimAndCreate(options)
}

/** Claims on one store: what a service receives, so that it never opens a store itself. */
export interface ClaimBook {
  claimAndCreate(options: Omit<ClaimedCreateOptions, 'store'>): Promise<ClaimOutcome>
}

export function claimBook(store: Store): ClaimBook {
  return { claimAndCreate: (options) => claimAndCreate({ ...options, store }) }
}

async function holdsClaim(store: Store, key: string, holderId: string): Promise<boolean> {
  const text = await store.get(key, { type: 'text' })
  return text !== null && parseClaim(text)?.holderId === holderId
}

function parseClaim(text: string): RecordClaim | null {
  try {
    // why: sign-up claims of an older format name the holder `subscriptionId`
    const value = JSON.parse(text) as Partial<RecordClaim> & { subscriptionId?: string }
    const holderId = value.holderId ?? value.subscriptionId
    if (typeof holderId === 'string' && typeof value.claimedAt === 'string') {
      return { holderId, claimedAt: value.claimedAt }
    }
  } catch {
    // a damaged claim holds nothing
  }
  return null
}
