import type { Config } from '@netlify/functions'
import { customerFormEndpoint, signupForm } from '../../src/lib/forms/customerForm.js'
import { honeypotAnswer, withHoneypot, withoutHoneypot } from '../../src/lib/forms/honeypot.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { notifySignup } from '../../src/lib/subscriptions/notifySignup.js'

export default defineEndpoint({
  ...customerFormEndpoint,
  body: withHoneypot(signupForm),
  handle: async ({ body, context, config, log }) => {
    const services = openServices(context, config, log)
    const trapped = honeypotAnswer(body, 'signup', services)
    if (trapped) return trapped
    // why: a repeated signup answers the existing pending subscription's id (D2)
    const { subscriptionId } = await notifySignup(withoutHoneypot(body), services)
    return { subscriptionId }
  },
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-signup',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
