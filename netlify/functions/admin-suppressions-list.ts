import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { listSuppressions } from '../../src/lib/compliance/suppressionList.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openComplianceStores } from '../../src/lib/storage/complianceStores.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context }) => {
    const suppressions = await listSuppressions(openComplianceStores(context).suppressions)
    return jsonResponse({ success: true, suppressions })
  },
})

export const config: Config = { path: '/api/admin/suppressions/list' }
