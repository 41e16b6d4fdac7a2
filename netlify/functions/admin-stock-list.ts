import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { listStock } from '../../src/lib/stock/stockList.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/** Every product's stock, waiting subscribers and automatic-notice settings (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context }) => {
    const { stock, subscriptions } = openRepositories(context)
    return jsonResponse({ success: true, stock: await listStock({ stock, subscriptions }) })
  },
})

export const config: Config = { path: '/api/admin/stock/list' }
