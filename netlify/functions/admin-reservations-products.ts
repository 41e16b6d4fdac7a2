import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { preorderOverview } from '../../src/lib/reservations/preorderOverview.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context }) => {
    const products = await preorderOverview({ context })
    return jsonResponse({ success: true, products })
  },
})

export const config: Config = { path: '/api/admin/reservations/products' }
