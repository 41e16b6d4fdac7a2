import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { handleResendWebhook } from '../../src/lib/compliance/resendWebhook.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  // why: the Svix signature covers the body exactly as sent
  body: z.string(),
  bodyKind: 'text',
  handle: async ({ req, body, context, config, log }) => {
    const services = openServices(context, config, log, { actor: SYSTEM_ACTORS.resendWebhook })
    return handleResendWebhook(body, req.headers, {
      repositories: services.repositories,
      audit: services.audit,
      secret: config.resendWebhookSecret,
      log,
      now: services.now,
    })
  },
})

export const config: Config = { path: '/api/resend-webhook' }
