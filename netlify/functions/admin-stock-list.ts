import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { listStock } from '../../src/lib/stock/stockList.js'

/**
 * Every product's stock, waiting subscribers and automatic-notice settings, and the quiet hours
 * (the dashboard asks before a manual send inside them) (docs/api.md).
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context, config, log }) => ({
    stock: await listStock(openServices(context, config, log).repositories, config.quietHours),
    quietHours: config.quietHours,
  }),
})

export const config: Config = { path: '/api/admin/stock/list' }
