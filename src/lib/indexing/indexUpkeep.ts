import type { Logger } from '../log.js'
import {
  rebuildIndexes,
  verifyIndexes,
  type RebuildOutcome,
} from '../storage/listing/indexMaintenance.js'
import type { Repositories } from '../storage/repositories.js'
import { issueRebuildTicket } from './rebuildTicket.js'

/** URL path of the background function that rebuilds missing indexes (`listing-rebuild-background.ts`). */
export const REBUILD_FUNCTION_PATH = '/.netlify/functions/listing-rebuild-background'

// why: a background function has 15 minutes; a partition takes seconds, so stopping to start
// partitions at 12 leaves the last one time to finish and the run time to start its successor
const REBUILD_BUDGET_MS = 12 * 60_000
// why: a scheduled function has 30 s
const VERIFY_BUDGET_MS = 20_000

export interface RebuildStarterOptions {
  /** Origin of this deploy (its own functions are called there). */
  origin: string
  /** UNSUBSCRIBE_SECRET, which signs the ticket; without it nothing is started (logged). */
  secret: string | null
  log: Logger
  /** Hands over the call, which may outlast the request (`context.waitUntil`). */
  defer: (work: Promise<unknown>) => void
  /** The clock the ticket is issued at, ms since the epoch. */
  now: () => number
  /** Default: global `fetch`. */
  fetch?: typeof fetch
}

/**
 * Starts a run of the background rebuild with a fresh ticket, without waiting for it; false
 * when it cannot be started (no secret to sign a ticket; logged).
 */
export function rebuildStarter(options: RebuildStarterOptions): () => boolean {
  const doFetch = options.fetch ?? fetch
  const { now } = options
  return () => {
    const { secret, log } = options
    if (!secret) {
      log.warn('storage.index_rebuild.not_started', {
        fix: 'set UNSUBSCRIBE_SECRET: it signs the rebuild ticket; until then the scheduled listing-verify rebuilds 20 s each run',
      })
      return false
    }
    const call = doFetch(new URL(REBUILD_FUNCTION_PATH, options.origin), {
      method: 'POST',
      headers: { Authorization: `Bearer ${issueRebuildTicket(secret, now())}` },
    }).then(async (response) => {
      await response.body?.cancel()
      if (!response.ok) throw new Error(`The rebuild function answered HTTP ${response.status}`)
    })
    options.defer(call.catch((error) => log.error('storage.index_rebuild.start_failed', error)))
    return true
  }
}

export interface UpkeepServices {
  repositories: Pick<Repositories, 'store' | 'indexes'>
  log: Logger
  /** Starts another run of the background rebuild (`rebuildStarter`). */
  startRebuild: () => boolean
  /** Names the run in its claim. */
  runId: string
  /** The run's clock (its deadline and claim), ms since the epoch. */
  now: () => number
}

/** One run of the background rebuild; starts the next run when it ran out of time. */
export async function runIndexRebuild(services: UpkeepServices): Promise<RebuildOutcome> {
  const { now } = services
  const { store, indexes } = services.repositories
  const outcome = await rebuildIndexes(store, indexes, {
    now,
    deadline: now() + REBUILD_BUDGET_MS,
    owner: services.runId,
  })
  services.log.info('storage.index_rebuild.run', { outcome })
  if (outcome === 'continue') services.startRebuild()
  return outcome
}

/** What a verifier run answers. */
export interface VerifyAnswer {
  verified: number
  rebuilding: boolean
}

/**
 * One run of the scheduled verifier: compares a slice of partitions with their key listings;
 * when an index is missing, rebuilds for the rest of its own time (enough for a small or empty
 * collection) and starts the background rebuild for what is left.
 */
export async function runIndexVerify(services: UpkeepServices): Promise<VerifyAnswer> {
  const { now } = services
  const { store, indexes } = services.repositories
  const deadline = now() + VERIFY_BUDGET_MS
  const { verified, incomplete } = await verifyIndexes(store, indexes, { now, deadline })
  let rebuilding = incomplete
  if (incomplete) {
    const outcome = await rebuildIndexes(store, indexes, { now, deadline, owner: services.runId })
    rebuilding = outcome !== 'complete'
    if (outcome === 'continue') services.startRebuild()
  }
  services.log.info('storage.index_verify.run', { verified, rebuilding })
  return { verified, rebuilding }
}
