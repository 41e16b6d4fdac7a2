import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { followClick } from '../../src/lib/demand/followClick.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `restockClick`. */
export interface RestockClickOptions {
  /** The clock that decides whether a link has expired. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET /api/r: the product link of a restock e-mail. Always a redirect to the shop's own page
 * (docs/dashboard.md "Clicks"); counts the click when the link is genuine, not expired and the
 * recipient's first on that notice.
 */
export function restockClick({ now }: RestockClickOptions = {}) {
  return defineEndpoint({
    methods: ['GET'],
    auth: 'none',
    handle: async ({ req, context, config, log }) =>
      followClick(req, openServices(context, config, log, { now })),
  })
}

export default restockClick()

// why: no rate limit: a limited click would show a shopper a 429 instead of the product page;
// counting cannot be inflated (a signed link counts once per recipient and notice)
export const config: Config = { path: '/api/r' }
