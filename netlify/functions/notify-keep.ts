import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { answerKeep, keepErrorAnswer, keepForm } from '../../src/lib/subscriptions/keepSignup.js'

/** Options of `notifyKeep`. */
export interface NotifyKeepOptions {
  /** The clock that decides whether a link has expired. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET/POST /api/notify-keep: the keep link of a long-waiting sign-up's e-mail. The deployed
 * function is `notifyKeep()`, on the wall clock.
 */
export function notifyKeep({ now }: NotifyKeepOptions = {}) {
  return defineEndpoint({
    methods: ['GET', 'POST'],
    auth: 'none',
    body: keepForm,
    bodyKind: 'form',
    errorPage: keepErrorAnswer,
    handle: ({ req, body, context, config, log }) =>
      answerKeep({ req, form: body, services: openServices(context, config, log, { now }) }),
  })
}

export default notifyKeep()

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-keep',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
