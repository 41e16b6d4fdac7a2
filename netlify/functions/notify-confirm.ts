import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import {
  answerConfirm,
  confirmErrorPage,
  confirmForm,
} from '../../src/lib/subscriptions/confirmSignup.js'

export default defineEndpoint({
  methods: ['GET', 'POST'],
  auth: 'none',
  body: confirmForm,
  bodyKind: 'form',
  errorPage: confirmErrorPage,
  handle: ({ req, body, context, config, log }) =>
    answerConfirm({ req, form: body, services: openServices(context, config, log) }),
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/notify-confirm',
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
