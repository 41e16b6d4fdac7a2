import type { Config } from '@netlify/functions'
import { erasePerson } from '../../src/lib/compliance/personalData.js'
import { eraseLinePerson } from '../../src/lib/compliance/linePersonalData.js'
import { personRequestSchema } from '../../src/lib/compliance/personRequest.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openPersonalData } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: personRequestSchema,
  handle: async ({ body, context, config, log, actor }) => {
    const deps = openPersonalData(context, config, log, actor)
    const answer = await ('lineUserId' in body
      ? eraseLinePerson(body.lineUserId, deps)
      : erasePerson(body.email, deps))
    await deps.settle()
    return { erased: answer }
  },
})

export const config: Config = { path: '/api/admin/people/erase' }
