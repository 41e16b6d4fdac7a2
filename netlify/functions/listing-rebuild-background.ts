import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { runIndexRebuild } from '../../src/lib/indexing/indexUpkeep.js'
import { requireRebuildTicket } from '../../src/lib/indexing/rebuildTicket.js'
import { requestClock } from '../../src/lib/clock.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `listingRebuild`. */
export interface ListingRebuildOptions {
  /** The clock of the run's deadline and claim. Default: `Date.now`. */
  now?: () => number
}

/**
 * Background function (15-minute limit, the platform answers 202 at once) that builds the
 * missing record indexes partition by partition (docs/architecture.md "Record indexes"),
 * started with a rebuild ticket by a list or stats request that found an index missing, by the
 * scheduled listing-verify, or by itself when its time runs out. Safe to run again: each built
 * partition is kept, and one run works at a time. The deployed function is `listingRebuild()`.
 */
export function listingRebuild({ now }: ListingRebuildOptions = {}) {
  const clock = requestClock(now)
  return defineEndpoint({
    methods: ['POST'],
    auth: (bearer, config, log) => requireRebuildTicket(bearer, config, log, clock()),
    body: z.object({}),
    handle: async ({ req, context, config, log }) => {
      const services = openServices(context, config, log, {
        origin: new URL(req.url).origin,
        now: clock,
      })
      const state = await runIndexRebuild({
        repositories: services.repositories,
        log,
        startRebuild: services.startIndexRebuild,
        runId: context.requestId ?? crypto.randomUUID(),
        now: services.now,
      })
      return { state }
    },
  })
}

export default listingRebuild()

export const config: Config = { background: true }
