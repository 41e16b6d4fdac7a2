import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { adminStockSchema } from '../../src/lib/stock/stockSchemas.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/** Sets stock quantities by hand or from the dashboard's CSV import (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: adminStockSchema,
  handle: async ({ context, body, log }) => {
    const result = await applyStockLines(body.items, {
      stock: openRepositories(context).stock,
      log,
      source: 'admin',
    })
    return jsonResponse({
      success: true,
      updated: result.updated,
      ...(result.errors.length > 0 ? { errors: result.errors } : {}),
    })
  },
})

export const config: Config = { path: '/api/admin/stock' }
