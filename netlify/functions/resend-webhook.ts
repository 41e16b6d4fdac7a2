import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import {
  handleResendWebhook,
  WebhookNotConfiguredError,
  WebhookSignatureError,
} from '../../src/lib/compliance/resendWebhook.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { HttpError } from '../../src/lib/http/errors.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openComplianceStores } from '../../src/lib/storage/complianceStores.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  // why: the Svix signature covers the body exactly as sent
  body: z.string(),
  bodyKind: 'text',
  handle: async ({ req, body, context, config, log }) => {
    const { store, suppressions } = openComplianceStores(context)
    try {
      const outcome = await handleResendWebhook(body, req.headers, {
        store,
        suppressions,
        subscriptions: openRepositories(context).subscriptions,
        secret: config.resendWebhookSecret,
        log,
      })
      return jsonResponse({ success: true, ...outcome })
    } catch (error) {
      if (error instanceof WebhookSignatureError) {
        log.warn('webhook.rejected', { reason: error.message })
        throw new HttpError(401, 'Invalid webhook signature')
      }
      if (error instanceof WebhookNotConfiguredError) {
        log.error('webhook.misconfigured', error)
        throw new HttpError(503, 'Webhook is not configured')
      }
      throw error
    }
  },
})

export const config: Config = { path: '/api/resend-webhook' }
