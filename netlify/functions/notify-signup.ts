import type { Config } from '@netlify/functions'
import { customerFormEndpoint, signupForm } from '../../src/lib/forms/customerForm.js'
import { honeypotAnswer, withHoneypot, withoutHoneypot } from '../../src/lib/forms/honeypot.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import type { QueuePlace } from '../../src/lib/messages/queuePlaceText.js'
import { notifySignup } from '../../src/lib/subscriptions/notifySignup.js'
import { newcomerPlace } from '../../src/lib/subscriptions/queuePlace.js'

export default defineEndpoint({
  ...customerFormEndpoint,
  body: withHoneypot(signupForm),
  handle: async ({ body, context, config, log }) => {
    const services = openServices(context, config, log)
    const trapped = honeypotAnswer(body, 'signup', services)
    // why: a decoy answers as a person's sign-up would, last in the queue it would join
    if (trapped) {
      const queue = config.notifyDoubleOptIn
        ? null
        : await newcomerPlace(body, services.repositories)
      return {
        ...trapped,
        ...confirmationField(config.notifyDoubleOptIn),
        ...queueField(queue),
      }
    }
    // why: a repeated signup answers the existing pending subscription's id (D2)
    const outcome = await notifySignup(withoutHoneypot(body), services)
    return {
      subscriptionId: outcome.subscriptionId,
      ...confirmationField(outcome.confirmationRequired),
      ...queueField(outcome.queue),
    }
  },
})

/** `queue` while the sign-up is waiting; absent otherwise (docs/decisions-local.md). */
function queueField(queue: QueuePlace | null): { queue?: QueuePlace } {
  return queue ? { queue } : {}
}

/**
 * `confirmationRequired: true` when the sign-up waits for its double opt-in confirmation; absent
 * otherwise, so the answer stays D2's byte for byte when double opt-in is off.
 */
function confirmationField(required: boolean): { confirmationRequired?: true } {
  return required ? { confirmationRequired: true } : {}
}

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-signup',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
