import type { Config } from '@netlify/functions'
import { customerFormEndpoint, reservationForm } from '../../src/lib/forms/customerForm.js'
import { honeypotAnswer, withHoneypot, withoutHoneypot } from '../../src/lib/forms/honeypot.js'
import { idempotencyKeyOf } from '../../src/lib/forms/idempotentRequest.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { createReservation } from '../../src/lib/reservations/createReservation.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  ...customerFormEndpoint,
  body: withHoneypot(reservationForm),
  handle: async ({ req, body, context, config, log }) => {
    const idempotencyKey = idempotencyKeyOf(req.headers)
    const services = openServices(context, config, log)
    const trapped = honeypotAnswer(body, 'reservation', services)
    if (trapped) return trapped
    return createReservation(withoutHoneypot(body), services, { idempotencyKey })
  },
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/reservation',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
