import { demandOverview, overviewRequestSchema } from '../../src/lib/overview/demandOverview.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: overviewRequestSchema,
  handle: async ({ context, body, config, log }) =>
    demandOverview(openServices(context, config, log), body),
})

export const config = { path: '/api/admin/overview' }
