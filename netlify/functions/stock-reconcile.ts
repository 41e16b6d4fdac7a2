import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { reconcileStockFeed } from '../../src/lib/stock/stockFeed.js'
import { runDueWave, runDueWaves } from '../../src/lib/stock/stockWaves.js'

/**
 * Scheduled every 10 minutes (no public path): reads `STOCK_FEED_URL` when it is set and applies
 * it, so a stock change no webhook announced is caught; then sends every automatic wave that is
 * due. Netlify calls it with `{"next_run": …}`.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  // why: the scheduler's request names no deploy address; the services start deliveries at the
  // site's own (config.siteUrl), this deploy's
  handle: async ({ context, config, log }) => {
    const services = openServices(context, config, log, { actor: SYSTEM_ACTORS.stockReconcile })
    const waves = services.waves()
    const feed = config.stockFeedUrl
      ? await reconcileStockFeed({
          url: config.stockFeedUrl,
          timeoutMs: config.outboundTimeoutMs,
          stock: waves.stock,
          log,
          audit: services.audit,
          now: services.now,
          startWave: (productSlug) => runDueWave(productSlug, waves),
        })
      : null
    const sent = await runDueWaves(waves)
    return {
      feed: feed === null ? 'not-configured' : feed.state,
      wavesSent: Object.values(sent).filter((run) => run.state === 'sent').length,
      changed:
        feed?.state === 'read'
          ? feed.result.updated.filter((change) => change.previous !== change.quantity).length
          : 0,
    }
  },
})

export const config: Config = { schedule: '*/10 * * * *' }
