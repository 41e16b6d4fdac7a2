import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { lineWebhookCheck } from '../../src/lib/endpoints/lineWebhookCheck.js'
import { handleLineWebhook } from '../../src/lib/line/lineWebhook.js'
import { openServices } from '../../src/lib/services.js'

/** LINE's webhook (README "LINE"): the signature is checked on the raw body first. */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  verifyBody: lineWebhookCheck,
  // why: the signature covers the body exactly as sent
  body: z.string(),
  bodyKind: 'text',
  handle: async ({ context, body, config, log }) => {
    const services = openServices(context, config, log, { actor: SYSTEM_ACTORS.lineWebhook })
    return handleLineWebhook(body, {
      repositories: services.repositories,
      audit: services.audit,
      log,
      now: services.now,
    })
  },
})

export const config: Config = { path: '/api/line-webhook' }
