import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openDeliveryJobStore } from '../../src/lib/restock/deliveryJobStore.js'
import { startDeliveryFrom } from '../../src/lib/restock/deliveryWorker.js'
import { resumeStalledDeliveries } from '../../src/lib/restock/stalledDeliveries.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/**
 * Scheduled function: every 10 minutes, restarts restock deliveries that stalled (no settled
 * batch for 20 minutes). Netlify calls it with `{"next_run": …}`; it has no public path.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  handle: async ({ context, config, log }) => {
    const sweep = await resumeStalledDeliveries({
      history: openRepositories(context).history,
      jobs: openDeliveryJobStore(context),
      log,
      // why: the scheduler's request names no deploy address; the site's own is this deploy's
      startDelivery: startDeliveryFrom({ origin: config.siteUrl, context, config, log }),
    })
    return jsonResponse({ success: true, ...sweep })
  },
})

export const config: Config = { schedule: '*/10 * * * *' }
