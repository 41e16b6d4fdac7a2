import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { adminStockSchema } from '../../src/lib/stock/stockSchemas.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'
import { waveOptionsFrom } from '../../src/lib/stock/stockWiring.js'

/** Sets stock quantities by hand or from the dashboard's CSV import (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: adminStockSchema,
  handle: async ({ req, context, body, config, log }) => {
    const waves = waveOptionsFrom({ origin: new URL(req.url).origin, context, config, log })
    const result = await applyStockLines(body.items, {
      stock: waves.stock,
      log,
      source: 'admin',
      startWave: async (productSlug) => void (await runDueWave(productSlug, waves)),
    })
    return jsonResponse({
      success: true,
      updated: result.updated,
      ...(result.errors.length > 0 ? { errors: result.errors } : {}),
    })
  },
})

export const config: Config = { path: '/api/admin/stock' }
