import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { collectStats } from '../../src/lib/admin/statistics.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context, config, log }) =>
    collectStats(openServices(context, config, log).repositories),
})

export const config: Config = { path: '/api/admin-stats' }
