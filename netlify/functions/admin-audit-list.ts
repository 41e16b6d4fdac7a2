import type { Config } from '@netlify/functions'
import { auditListSchema, listAuditEntries } from '../../src/lib/audit/auditTrail.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openAuditRepository } from '../../src/lib/storage/auditRepository.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: auditListSchema,
  handle: async ({ context, body }) => {
    const page = await listAuditEntries(openAuditRepository(context), body)
    return jsonResponse({ success: true, ...page })
  },
})

export const config: Config = { path: '/api/admin/audit/list' }
