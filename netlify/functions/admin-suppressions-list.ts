import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { listSuppressions } from '../../src/lib/compliance/suppressionList.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context, config, log }) => ({
    suppressions: await listSuppressions(
      openServices(context, config, log).repositories.suppressions,
    ),
  }),
})

export const config: Config = { path: '/api/admin/suppressions/list' }
