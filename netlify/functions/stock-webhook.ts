import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { requestClock } from '../../src/lib/clock.js'
import { signedWebhookCheck } from '../../src/lib/endpoints/signedWebhook.js'
import { openServices } from '../../src/lib/services.js'
import { receiveStockEvent } from '../../src/lib/stock/stockEvent.js'
import { stockWebhookSchema } from '../../src/lib/stock/stockSchemas.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'

const clock = requestClock()

/**
 * The inventory system's or POS's signed stock webhook (docs/api.md): the signature is checked
 * on the raw body before anything is parsed; an event id seen before changes nothing.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  verifyBody: signedWebhookCheck({
    kind: 'stock',
    secretOf: (config) => config.stockWebhookSecret,
    variable: 'STOCK_WEBHOOK_SECRET',
    now: clock,
  }),
  body: stockWebhookSchema,
  handle: async ({ req, context, body, config, log }) => {
    const services = openServices(context, config, log, {
      origin: new URL(req.url).origin,
      actor: SYSTEM_ACTORS.stockWebhook,
      now: clock,
    })
    const waves = services.waves()
    const outcome = await receiveStockEvent(body, {
      stock: waves.stock,
      events: services.repositories.stockEvents,
      log,
      audit: services.audit,
      now: services.now,
      startWave: (productSlug) => runDueWave(productSlug, waves),
    })
    if (outcome.duplicate) return { duplicate: true }
    return {
      duplicate: false,
      updated: outcome.updated,
      ...(outcome.errors.length > 0 ? { errors: outcome.errors } : {}),
    }
  },
})

export const config: Config = { path: '/api/stock-webhook' }
