import type { Config } from '@netlify/functions'
import {
  liftSuppression,
  liftSuppressionSchema,
  SuppressionNotFoundError,
} from '../../src/lib/compliance/suppressionList.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { HttpError } from '../../src/lib/http/errors.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openComplianceStores } from '../../src/lib/storage/complianceStores.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: liftSuppressionSchema,
  handle: async ({ body, context, log }) => {
    try {
      await liftSuppression(openComplianceStores(context).suppressions, body.emailHash, log)
    } catch (error) {
      if (error instanceof SuppressionNotFoundError) throw new HttpError(404, error.message)
      throw error
    }
    return jsonResponse({ success: true })
  },
})

export const config: Config = { path: '/api/admin/suppressions/lift' }
