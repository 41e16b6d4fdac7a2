import type { Config } from '@netlify/functions'
import { customerFormEndpoint, signupForm } from '../../src/lib/forms/customerForm.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { notifySignup } from '../../src/lib/subscriptions/notifySignup.js'

export default defineEndpoint({
  ...customerFormEndpoint,
  body: signupForm,
  handle: async ({ body, context, config, log }) => {
    // why: a repeated signup answers the existing pending subscription's id (D2)
    const { subscriptionId } = await notifySignup(body, { context, config, log })
    return jsonResponse({ success: true, subscriptionId })
  },
})

export const config: Config = { path: '/api/notify-signup' }
