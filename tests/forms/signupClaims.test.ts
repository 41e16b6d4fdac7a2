import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CLAIM_SETTLE_MS,
  CLAIM_WRITE_GRACE_MS,
  claimKey,
  claimSignup,
  isFreshClaim,
  readClaim,
  releaseClaim,
  SignupClaimTimeoutError,
  type ClaimSignupOptions,
  type SubscriptionState,
} from '../../src/lib/restock/signupClaims.js'
import { openStore, RECORDS_STORE } from '../../src/lib/storage/blobStore.js'
import { startBlobsServer, type RunningBlobsServer } from '../helpers/blobsServer.js'

let blobs: RunningBlobsServer
beforeAll(async () => {
  blobs = await startBlobsServer()
})
afterAll(() => blobs.stop())

const store = () => openStore(RECORDS_STORE, { deploy: { context: 'dev' } })
let counter = 0
const newId = () => `ntf_${Date.now()}-test${++counter}`
const noWait = async () => undefined

/** Options for one signup of `email` over a shared in-memory set of stored subscriptions. */
function signupOf(
  email: string,
  stored: Map<string, SubscriptionState>,
  overrides: Partial<ClaimSignupOptions> = {},
): ClaimSignupOptions {
  return {
    store: store(),
    key: claimKey('claim-product', email),
    stateOf: async (id) => stored.get(id) ?? 'missing',
    findLive: async () => [...stored].find(([, state]) => state === 'live')?.[0] ?? null,
    newId,
    ...overrides,
  }
}

describe('claimSignup', () => {
  it('creates when there is no claim, and writes the claim', async () => {
    const options = signupOf('first@example.com', new Map(), { sleep: noWait })
    const decision = await claimSignup(options)
    expect(decision.created).toBe(true)
    expect((await readClaim(store(), options.key))?.subscriptionId).toBe(decision.subscriptionId)
  })

  it('answers the live subscription a claim names, without writing', async () => {
    const stored = new Map<string, SubscriptionState>([['ntf_live', 'live']])
    const options = signupOf('live@example.com', stored)
    await store().setJSON(options.key, {
      subscriptionId: 'ntf_live',
      claimedAt: '2020-01-01T00:00:00Z',
    })
    expect(await claimSignup(options)).toEqual({ subscriptionId: 'ntf_live', created: false })
  })

  it('takes over a claim whose subscription is no longer live', async () => {
    const stored = new Map<string, SubscriptionState>([['ntf_done', 'inactive']])
    const options = signupOf('done@example.com', stored, {
      sleep: noWait,
      findLive: async () => null,
    })
    await store().setJSON(options.key, {
      subscriptionId: 'ntf_done',
      claimedAt: new Date().toISOString(),
    })
    const decision = await claimSignup(options)
    expect(decision.created).toBe(true)
    expect(decision.subscriptionId).not.toBe('ntf_done')
  })

  it('waits for the subscription of a fresh claim instead of answering an id not stored yet', async () => {
    const stored = new Map<string, SubscriptionState>()
    const waits: number[] = []
    const options = signupOf('waiting@example.com', stored, {
      sleep: async (ms) => {
        waits.push(ms)
        if (waits.length === 2) stored.set('ntf_winner', 'live')
      },
    })
    await store().setJSON(options.key, {
      subscriptionId: 'ntf_winner',
      claimedAt: new Date().toISOString(),
    })
    expect(await claimSignup(options)).toEqual({ subscriptionId: 'ntf_winner', created: false })
    expect(waits).toEqual([CLAIM_SETTLE_MS, CLAIM_SETTLE_MS])
  })

  it('gives up with a clear error when that subscription never appears', async () => {
    let clock = Date.now()
    const options = signupOf('stuck@example.com', new Map(), {
      sleep: noWait,
      now: () => new Date((clock += 1000)),
    })
    await store().setJSON(options.key, {
      subscriptionId: 'ntf_stuck',
      claimedAt: new Date(clock).toISOString(),
    })
    await expect(claimSignup(options)).rejects.toBeInstanceOf(SignupClaimTimeoutError)
  })

  it('loses when another signup overwrites the claim while it settles, then answers that one', async () => {
    const stored = new Map<string, SubscriptionState>()
    const key = claimKey('claim-product', 'overwritten@example.com')
    let waits = 0
    const options = signupOf('overwritten@example.com', stored, {
      sleep: async () => {
        waits++
        if (waits === 1) {
          await store().setJSON(key, {
            subscriptionId: 'ntf_rival',
            claimedAt: new Date().toISOString(),
          })
        }
        if (waits === 2) stored.set('ntf_rival', 'live')
      },
    })
    expect(await claimSignup(options)).toEqual({ subscriptionId: 'ntf_rival', created: false })
  })

  it('yields to a live subscription found in the product even when it holds the claim, and repairs the claim', async () => {
    const stored = new Map<string, SubscriptionState>([['ntf_stalled_winner', 'live']])
    const options = signupOf('stalled@example.com', stored, { sleep: noWait })
    expect(await claimSignup(options)).toEqual({
      subscriptionId: 'ntf_stalled_winner',
      created: false,
    })
    expect((await readClaim(store(), options.key))?.subscriptionId).toBe('ntf_stalled_winner')
  })

  it('lets ten simultaneous signups of one pair agree on one creator', async () => {
    const stored = new Map<string, SubscriptionState>()
    const decisions = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const decision = await claimSignup(signupOf('crowd@example.com', stored, { settleMs: 20 }))
        if (decision.created) stored.set(decision.subscriptionId, 'live')
        return decision
      }),
    )
    expect(decisions.filter((decision) => decision.created)).toHaveLength(1)
    expect(new Set(decisions.map((decision) => decision.subscriptionId)).size).toBe(1)
  })
})

describe('claim helpers', () => {
  it('keeps the e-mail out of the key and ignores its case and spaces', () => {
    const key = claimKey('matcha-set', 'Someone@Example.com')
    expect(key).toMatch(/^notify-claims\/matcha-set\/[0-9a-f]{64}$/)
    expect(key).toBe(claimKey('matcha-set', ' someone@example.com'))
  })

  it('releases a claim only while it still names the given subscription', async () => {
    const key = claimKey('claim-product', 'release@example.com')
    await store().setJSON(key, { subscriptionId: 'ntf_mine', claimedAt: new Date().toISOString() })
    await releaseClaim(store(), key, 'ntf_other')
    expect(await readClaim(store(), key)).not.toBeNull()
    await releaseClaim(store(), key, 'ntf_mine')
    expect(await readClaim(store(), key)).toBeNull()
  })

  it('treats a claim as fresh only within the grace period', () => {
    const now = new Date('2026-01-01T00:01:00.000Z')
    const at = (ms: number) => ({
      subscriptionId: 'x',
      claimedAt: new Date(now.getTime() - ms).toISOString(),
    })
    expect(isFreshClaim(at(0), now)).toBe(true)
    expect(isFreshClaim(at(CLAIM_WRITE_GRACE_MS - 1), now)).toBe(true)
    expect(isFreshClaim(at(CLAIM_WRITE_GRACE_MS), now)).toBe(false)
    expect(isFreshClaim({ subscriptionId: 'x', claimedAt: 'garbage' }, now)).toBe(false)
  })

  it('ignores a claim blob of the wrong shape', async () => {
    const key = claimKey('claim-product', 'garbage@example.com')
    await store().setJSON(key, { something: 'else' })
    expect(await readClaim(store(), key)).toBeNull()
  })
})
