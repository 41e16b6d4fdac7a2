import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { previewStockLines } from '../../src/lib/stock/stockPreview.js'
import { adminStockSchema } from '../../src/lib/stock/stockSchemas.js'

/** What a stock change would do, stored nowhere (docs/api.md): the dashboard's import preview. */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: adminStockSchema,
  handle: async ({ context, body, config, log }) => {
    const services = openServices(context, config, log)
    const preview = await previewStockLines(body.items, services.repositories, services.now)
    return {
      changes: preview.changes,
      ...(preview.errors.length > 0 ? { errors: preview.errors } : {}),
    }
  },
})

export const config: Config = { path: '/api/admin/stock/preview' }
