import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { lineAccounts } from '../../src/lib/line/lineAccounts.js'
import { answerLineCallback, requireLine } from '../../src/lib/line/lineLogin.js'
import { lineErrorPage } from '../../src/lib/line/linePages.js'
import { pageShopOf } from '../../src/lib/pages/htmlPage.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `lineCallback`. */
export interface LineCallbackOptions {
  /** The clock of the state's expiry and the ID token's. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET /api/line/callback: where LINE sends the shopper back after the login (the Login channel's
 * callback URL, README "LINE"). The deployed function is `lineCallback()`.
 */
export function lineCallback({ now }: LineCallbackOptions = {}) {
  return defineEndpoint({
    methods: ['GET'],
    auth: 'none',
    errorPage: (_req, status, config) => lineErrorPage(status, pageShopOf(config)),
    handle: async ({ req, context, config, log }) => {
      const services = openServices(context, config, log, { now })
      const settings = requireLine(config, log)
      return answerLineCallback(new URL(req.url).searchParams, {
        services,
        accounts: lineAccounts({ settings, timeoutMs: config.outboundTimeoutMs, log }),
      })
    },
  })
}

export default lineCallback()

// why: a literal, because Netlify reads this config from the source without running it
export const config: Config = {
  path: '/api/line/callback',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
