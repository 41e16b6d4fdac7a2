import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { rollUpDemandDays } from '../../src/lib/demand/demandDays.js'
import { rollUpClosedPeriods } from '../../src/lib/search/analytics/keywordRollups.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `keywordRollup`. */
export interface KeywordRollupOptions {
  /** The clock that decides which hours and days are closed. Default: `Date.now`. */
  now?: () => number
}

/**
 * Scheduled every hour (no public path): rolls up the keyword log's closed hours and days so that
 * POST /api/admin/search-keywords reads a few dozen blobs (docs/search.md), then the closed JST
 * days of the pictures of demand (docs/dashboard.md "Overview"). Netlify calls it with
 * `{"next_run": …}`. A failure is a logged 500; the next run, or the next summary, builds what is
 * missing. The deployed function is `keywordRollup()`, on the wall clock.
 */
export function keywordRollup({ now }: KeywordRollupOptions = {}) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'none',
    body: z.object({ next_run: z.string().optional() }),
    handle: async ({ context, config, log }) => {
      const services = openServices(context, config, log, { now })
      const { keywordLog, repositories } = services
      const at = services.now()
      const rolled = await rollUpClosedPeriods(keywordLog, { now: at, budgetMs: 16_000 })
      log.info('search.keywords.rolled_up', { days: rolled.days, hours: rolled.hours.length })
      // why: after the keyword hours, so a closed JST day's searches sum finished hour rollups
      const demand = await rollUpDemandDays(
        { demand: repositories.demand, keywordLog },
        { now: at, budgetMs: 8_000 },
      )
      log.info('demand.rolled_up', { days: demand.length })
      return { days: rolled.days, hours: rolled.hours.length, demandDays: demand.length }
    },
  })
}

export default keywordRollup()

export const config: Config = { schedule: '@hourly' }
