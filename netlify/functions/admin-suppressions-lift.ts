import type { Config } from '@netlify/functions'
import { liftSuppression, liftSuppressionSchema } from '../../src/lib/compliance/suppressionList.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: liftSuppressionSchema,
  handle: async ({ body, context, config, log }) => {
    await liftSuppression(
      openServices(context, config, log).repositories.suppressions,
      body.emailHash,
      log,
    )
    return {}
  },
})

export const config: Config = { path: '/api/admin/suppressions/lift' }
