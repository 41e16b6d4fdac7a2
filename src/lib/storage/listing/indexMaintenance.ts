import type { Store } from '@netlify/blobs'
import { indexKeys } from '../blobLayout.js'
import type { RecordIndex } from './recordIndex.js'

/**
 * The upkeep of the record indexes, outside requests: the rebuild of missing indexes (the
 * background function listing-rebuild-background) and the verifier (the scheduled function
 * listing-verify). Both work partition by partition; each finished base is a checkpoint, so a
 * run cut short (time limit, death) leaves its work done and the next run continues.
 */

/** How a rebuild run ended: all indexes complete, out of time (run again), or another run holds the claim. */
export type RebuildOutcome = 'complete' | 'continue' | 'busy'

export interface UpkeepOptions {
  /** Clock (ms). */
  now: () => number
  /** The run stops starting partitions at this time (ms). */
  deadline: number
  /** Names this run in its claim. */
  owner: string
}

// why: a run renews its claim after each partition; a dead run's claim lapses this soon
const CLAIM_LEASE_MS = 3 * 60_000

interface Claim {
  owner: string
  until: number
}

/**
 * Builds the base of every partition without one, collection by collection, then marks the
 * collection complete. Only one run works at a time (a claim blob with a lease).
 */
export async function rebuildIndexes(
  store: Store,
  indexes: readonly RecordIndex[],
  options: UpkeepOptions,
): Promise<RebuildOutcome> {
  const { now, deadline } = options
  let etag = await claim(store, options)
  if (etag === null) return 'busy'
  for (const index of indexes) {
    if (await index.isComplete()) continue
    for (const partition of await index.missingPartitions()) {
      if (now() >= deadline) {
        await release(store, etag)
        return 'continue'
      }
      await index.fold(partition, { verify: true })
      etag = await renew(store, etag, options)
      if (etag === null) return 'busy'
    }
    // why: a partition that appeared meanwhile has deltas for all its records (written after
    // the discovery by the service) or is found by the verifier
    await index.markComplete()
  }
  await release(store, etag)
  return 'complete'
}

/** What a verifier run did. */
export interface VerifyOutcome {
  /** Partitions compared with their key listing (and folded). */
  verified: number
  /** Whether some collection is not complete (the rebuild must run). */
  incomplete: boolean
}

interface Cursor {
  collection: string
  partition: string
}

/**
 * Compares partitions with their key listing, in turn from where the last run stopped, until
 * the deadline: records written around the service (the Netlify UI, a writer that died) are
 * read into the base, leftover deltas folded and the counters corrected. Collections not yet complete are left to the
 * rebuild (reported as `incomplete`).
 */
export async function verifyIndexes(
  store: Store,
  indexes: readonly RecordIndex[],
  options: Omit<UpkeepOptions, 'owner'>,
): Promise<VerifyOutcome> {
  const work: Cursor[] = []
  let incomplete = false
  for (const index of indexes) {
    // why: the verifier compares bases with key listings: it needs every partition indexed;
    // a time view or counters not yet complete are completed by their readers or the rebuild
    if (!(await index.isIndexed())) {
      incomplete = true
      continue
    }
    for (const partition of await index.partitions())
      work.push({ collection: index.collection, partition })
  }
  const cursor = (await store
    .get(indexKeys.verifyCursor, { type: 'json' })
    .catch(() => null)) as Cursor | null
  const from = cursor
    ? work.findIndex(
        (item) => item.collection === cursor.collection && item.partition === cursor.partition,
      ) + 1
    : 0
  const order = [...work.slice(from), ...work.slice(0, from)]
  let verified = 0
  for (const item of order) {
    if (options.now() >= options.deadline || verified === work.length) break
    const index = indexes.find((candidate) => candidate.collection === item.collection)
    await index?.reconcile(item.partition)
    verified += 1
    await store.setJSON(indexKeys.verifyCursor, item)
  }
  return { verified, incomplete }
}

/** Takes the claim when it is free or lapsed; its ETag, or null when another run holds it. */
async function claim(store: Store, options: UpkeepOptions): Promise<string | null> {
  const found = await store.getWithMetadata(indexKeys.rebuildClaim, { type: 'json' })
  const held = found?.data as Partial<Claim> | null | undefined
  if (found && typeof held?.until === 'number' && held.until > options.now()) return null
  const next: Claim = { owner: options.owner, until: options.now() + CLAIM_LEASE_MS }
  const condition = found?.etag ? { onlyIfMatch: found.etag } : { onlyIfNew: true as const }
  const { modified, etag } = await store.setJSON(indexKeys.rebuildClaim, next, condition)
  return modified && etag ? etag : null
}

async function renew(store: Store, etag: string, options: UpkeepOptions): Promise<string | null> {
  const next: Claim = { owner: options.owner, until: options.now() + CLAIM_LEASE_MS }
  const written = await store.setJSON(indexKeys.rebuildClaim, next, { onlyIfMatch: etag })
  return written.modified && written.etag ? written.etag : null
}

async function release(store: Store, etag: string): Promise<void> {
  await store.setJSON(indexKeys.rebuildClaim, { owner: '', until: 0 }, { onlyIfMatch: etag })
}
