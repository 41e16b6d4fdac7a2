import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
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
    answerUnsubscribe({ req, form: body, context, config, log }),
})

export const config: Config = { path: '/api/notify-unsubscribe' }
