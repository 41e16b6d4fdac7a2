import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  answerManage,
  manageFailurePage,
  manageForm,
} from '../../src/lib/reservations/manageReservation.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['GET', 'POST'],
  auth: 'none',
  body: manageForm,
  bodyKind: 'form',
  errorPage: manageFailurePage,
  handle: ({ req, body, context, config, log }) =>
    answerManage({
      req,
      form: body,
      services: openServices(context, config, log, { actor: SYSTEM_ACTORS.customer }),
    }),
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/reservation/manage',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
