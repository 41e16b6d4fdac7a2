import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { reconcileStockFeed } from '../../src/lib/stock/stockFeed.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/**
 * Scheduled every 10 minutes (no public path): reads `STOCK_FEED_URL` when it is set and applies
 * it, so a stock change no webhook announced is caught. Netlify calls it with `{"next_run": …}`.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({ next_run: z.string().optional() }),
  handle: async ({ context, config, log }) => {
    const { stock } = openRepositories(context)
    const feed = config.stockFeedUrl
      ? await reconcileStockFeed({
          url: config.stockFeedUrl,
          timeoutMs: config.outboundTimeoutMs,
          stock,
          log,
        })
      : null
    return jsonResponse({
      success: true,
      feed: feed === null ? 'not-configured' : feed.state,
      changed:
        feed?.state === 'read'
          ? feed.result.updated.filter((c) => c.previous !== c.quantity).length
          : 0,
    })
  },
})

export const config: Config = { schedule: '*/10 * * * *' }
