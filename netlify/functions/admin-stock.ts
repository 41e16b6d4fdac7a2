import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { adminStockSchema } from '../../src/lib/stock/stockSchemas.js'
import { applyStockLines } from '../../src/lib/stock/stockUpdates.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'

/** Sets stock quantities by hand or from the dashboard's CSV import (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: adminStockSchema,
  handle: async ({ req, context, body, config, log, actor }) => {
    const services = openServices(context, config, log, { origin: new URL(req.url).origin, actor })
    const waves = services.waves()
    const result = await applyStockLines(body.items, {
      stock: waves.stock,
      log,
      audit: services.audit,
      now: services.now,
      source: 'admin',
      startWave: (productSlug) => runDueWave(productSlug, waves),
    })
    return {
      updated: result.updated,
      ...(result.errors.length > 0 ? { errors: result.errors } : {}),
    }
  },
})

export const config: Config = { path: '/api/admin/stock' }
