import type { Config } from '@netlify/functions'
import { liftSuppression, liftSuppressionSchema } from '../../src/lib/compliance/suppressionList.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: liftSuppressionSchema,
  handle: async ({ body, context, config, log, actor }) => {
    const services = openServices(context, config, log, { actor })
    await liftSuppression(services.repositories.suppressions, body.emailHash, log, services.audit)
    return {}
  },
})

export const config: Config = { path: '/api/admin/suppressions/lift' }
