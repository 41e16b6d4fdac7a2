import type { Config } from '@netlify/functions'
import { auditListSchema, listAuditEntries } from '../../src/lib/audit/auditTrail.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: auditListSchema,
  handle: async ({ context, body, config, log }) =>
    listAuditEntries(openServices(context, config, log).auditTrail, body),
})

export const config: Config = { path: '/api/admin/audit/list' }
