import type { Config } from '@netlify/functions'
import { exportPerson } from '../../src/lib/compliance/personalData.js'
import { openPersonalData, personRequestSchema } from '../../src/lib/compliance/personRequest.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: personRequestSchema,
  handle: async ({ body, context, log }) => {
    const deps = openPersonalData(context, log)
    const answer = await exportPerson(body.email, deps)
    await deps.settle()
    return jsonResponse(answer)
  },
})

export const config: Config = { path: '/api/admin/people/export' }
