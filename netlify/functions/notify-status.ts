import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import {
  answerQueueStatus,
  queueStatusFailurePage,
} from '../../src/lib/subscriptions/queueStatus.js'

/** Options of `notifyStatus`. */
export interface NotifyStatusOptions {
  /** The clock that decides whether a link has expired. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET /notify/status: the 「入荷待ちの状況」 page of a restock sign-up. The deployed function is
 * `notifyStatus()`, on the wall clock.
 */
export function notifyStatus({ now }: NotifyStatusOptions = {}) {
  return defineEndpoint({
    methods: ['GET'],
    auth: 'none',
    errorPage: queueStatusFailurePage,
    handle: ({ req, context, config, log }) =>
      answerQueueStatus({ req, services: openServices(context, config, log, { now }) }),
  })
}

export default notifyStatus()

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/notify/status',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
