import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import {
  answerUnsubscribe,
  unsubscribeErrorPage,
  unsubscribeForm,
} from '../../src/lib/subscriptions/unsubscribeRequest.js'

export default defineEndpoint({
  methods: ['GET', 'POST'],
  auth: 'none',
  body: unsubscribeForm,
  bodyKind: 'form',
  errorPage: unsubscribeErrorPage,
  handle: ({ req, body, context, config, log }) =>
    answerUnsubscribe({
      req,
      form: body,
      services: openServices(context, config, log, { actor: SYSTEM_ACTORS.customer }),
    }),
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-unsubscribe',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
