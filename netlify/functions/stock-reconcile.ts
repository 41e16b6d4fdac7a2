import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  scheduledSource,
  sendDueSends,
  SWEEP_BUDGET_MS,
  waveSource,
} from '../../src/lib/restock/dueSends.js'
import { openServices } from '../../src/lib/services.js'
import { reconcileStockFeed } from '../../src/lib/stock/stockFeed.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'

/** Options of `stockReconcile`. */
export interface StockReconcileOptions {
  /** The clock of the sweep: what is due, the quiet hours. Default: `Date.now`. */
  now?: () => number
}

/**
 * Scheduled every 10 minutes (no public path): reads `STOCK_FEED_URL` when it is set and applies
 * it, so a stock change no webhook announced is caught; then sends everything that is due, in
 * the order it fell due: automatic waves (outside the quiet hours) and the sends staff scheduled
 * (restock/dueSends.ts). Netlify calls it with `{"next_run": …}`. The deployed function is
 * `stockReconcile()`, on the wall clock.
 */
export function stockReconcile({ now }: StockReconcileOptions = {}) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'none',
    body: z.object({ next_run: z.string().optional() }),
    // why: the scheduler's request names no deploy address; the services start deliveries at the
    // site's own (config.siteUrl), this deploy's
    handle: async ({ context, config, log }) => {
      const services = openServices(context, config, log, {
        actor: SYSTEM_ACTORS.stockReconcile,
        now,
      })
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
      const sweep = await sendDueSends({
        sources: [waveSource(waves), scheduledSource(services)],
        quietHours: config.quietHours,
        budgetMs: SWEEP_BUDGET_MS,
        log,
        now: services.now,
      })
      return {
        feed: feed === null ? 'not-configured' : feed.state,
        wavesSent: sweep.done.wave ?? 0,
        scheduledSent: sweep.done.scheduled ?? 0,
        quietHoursWaiting: sweep.quietHoursWaiting,
        left: sweep.left,
        changed:
          feed?.state === 'read'
            ? feed.result.updated.filter((change) => change.previous !== change.quantity).length
            : 0,
      }
    },
  })
}

export default stockReconcile()

export const config: Config = { schedule: '*/10 * * * *' }
