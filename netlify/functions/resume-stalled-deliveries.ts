import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { resumeStalledDeliveries } from '../../src/lib/restock/stalledDeliveries.js'
import { openServices } from '../../src/lib/services.js'

/**
 * Scheduled function: every 10 minutes, restarts restock deliveries that stalled (no settled
 * batch for 20 minutes). Netlify calls it with `{"next_run": …}`; it has no public path.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  // why: the scheduler's request names no deploy address; the services start deliveries at the
  // site's own (config.siteUrl), this deploy's
  handle: async ({ context, config, log }) =>
    resumeStalledDeliveries(openServices(context, config, log)),
})

export const config: Config = { schedule: '*/10 * * * *' }
