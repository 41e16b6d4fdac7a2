import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { keepMailOf, runSignupExpiry } from '../../src/lib/subscriptions/signupExpiry.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `signupExpiry`. */
export interface SignupExpiryOptions {
  /** The clock of the run: who has waited long, whose question went unanswered. Default: `Date.now`. */
  now?: () => number
}

/**
 * Scheduled once a day (no public path): asks the sign-ups that have waited SIGNUP_EXPIRY_DAYS
 * whether they still want the restock e-mail, and ends the ones that did not answer in 14 days
 * (subscriptions/signupExpiry.ts). Netlify calls it with `{"next_run": …}`. The deployed
 * function is `signupExpiry()`, on the wall clock.
 */
export function signupExpiry({ now }: SignupExpiryOptions = {}) {
  return defineEndpoint({
    methods: ['POST'],
    auth: 'none',
    body: z.object({ next_run: z.string().optional() }),
    handle: async ({ context, config, log }) => {
      const services = openServices(context, config, log, {
        actor: SYSTEM_ACTORS.signupExpiry,
        now,
      })
      return runSignupExpiry({
        repositories: services.repositories,
        audit: services.audit,
        log,
        now: services.now,
        expiryDays: config.signupExpiryDays,
        quietHours: config.quietHours,
        mail: keepMailOf(config, log),
      })
    },
  })
}

export default signupExpiry()

// why: 00:00 UTC is 09:00 JST, after the default quiet hours (21-8)
export const config: Config = { schedule: '0 0 * * *' }
