import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { runIndexVerify } from '../../src/lib/indexing/indexUpkeep.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `listingVerify`. */
export interface ListingVerifyOptions {
  /** The clock of the run's deadline. Default: `Date.now`. */
  now?: () => number
}

/**
 * Scheduled every 10 minutes (no public path): compares a slice of the record indexes with
 * their key listings (records written around the service, e.g. in the Netlify UI), folds
 * leftover deltas, and starts the background rebuild when an index is missing
 * (docs/architecture.md "Record indexes"). Netlify calls it with `{"next_run": …}`. The
 * deployed function is `listingVerify()`, on the wall clock.
 */
export function listingVerify({ now }: ListingVerifyOptions = {}) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'none',
    body: z.object({ next_run: z.string().optional() }),
    // why: the scheduler's request names no deploy address; the rebuild is started at the
    // site's own (config.siteUrl)
    handle: async ({ context, config, log }) => {
      const services = openServices(context, config, log, { now })
      return runIndexVerify({
        repositories: services.repositories,
        log,
        startRebuild: services.startIndexRebuild,
        runId: context.requestId ?? crypto.randomUUID(),
        now: services.now,
      })
    },
  })
}

export default listingVerify()

export const config: Config = { schedule: '*/10 * * * *' }
