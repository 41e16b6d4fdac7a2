import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { lineErrorPage } from '../../src/lib/line/linePages.js'
import { loginRedirectUrl, loginTargetOf, requireLine } from '../../src/lib/line/lineLogin.js'
import { pageShopOf } from '../../src/lib/pages/htmlPage.js'

/** Options of `lineLogin`. */
export interface LineLoginOptions {
  /** The clock the state's expiry is set by. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET /api/line/login?productSlug=…(&variant=…): the 「LINEで受け取る」 button's link; answers
 * 302 to LINE's login page (README "LINE"). The deployed function is `lineLogin()`.
 */
export function lineLogin({ now = Date.now }: LineLoginOptions = {}) {
  return defineEndpoint({
    methods: ['GET'],
    auth: 'none',
    errorPage: (_req, status, config) => lineErrorPage(status, pageShopOf(config)),
    handle: async ({ req, config, log }) => {
      const settings = requireLine(config, log)
      const target = loginTargetOf(new URL(req.url).searchParams)
      const location = loginRedirectUrl(target, settings, config.siteUrl, now())
      return new Response(null, {
        status: 302,
        headers: {
          Location: location,
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      })
    },
  })
}

export default lineLogin()

// why: a literal, because Netlify reads this config from the source without running it
export const config: Config = {
  path: '/api/line/login',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
