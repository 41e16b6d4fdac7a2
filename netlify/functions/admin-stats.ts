import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { collectStats } from '../../src/lib/admin/statistics.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context }) => {
    const stats = await collectStats(openRepositories(context))
    return jsonResponse({ success: true, stats })
  },
})

export const config: Config = { path: '/api/admin-stats' }
