import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

/**
 * Who the token sent names and which groups accept it (docs/api.md): the dashboard signs in with
 * any staff token and offers only what it may do. Reads nothing but the token.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'staff',
  body: z.object({}),
  handle: async ({ actor, groups }) => ({ name: actor, groups }),
})

export const config: Config = { path: '/api/admin/whoami' }
