import type { Config } from '@netlify/functions'
import { holdForm } from '../../src/lib/forms/customerForm.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { answerHold, holdErrorAnswer } from '../../src/lib/reservations/holdClaim.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `reservationHold`. */
export interface ReservationHoldOptions {
  /** The clock that decides whether a hold has ended. Default: `Date.now`. */
  now?: () => number
}

/**
 * GET/POST /reservation/hold: the お取り置き link of a restock e-mail. The deployed function is
 * `reservationHold()`, on the wall clock.
 */
export function reservationHold({ now }: ReservationHoldOptions = {}) {
  return defineEndpoint({
    methods: ['GET', 'POST'],
    auth: 'none',
    body: holdForm,
    bodyKind: 'form',
    errorPage: holdErrorAnswer,
    handle: ({ req, body, context, config, log }) =>
      answerHold({ req, form: body, services: openServices(context, config, log, { now }) }),
  })
}

export default reservationHold()

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/reservation/hold',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
