import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { NotConfiguredError, UnauthorizedError } from '../../src/lib/errors.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { requestClock } from '../../src/lib/clock.js'
import { openServices } from '../../src/lib/services.js'
import { receiveStockEvent } from '../../src/lib/stock/stockEvent.js'
import { stockWebhookSchema } from '../../src/lib/stock/stockSchemas.js'
import {
  isValidStockSignature,
  STOCK_SIGNATURE_HEADER,
} from '../../src/lib/stock/stockSignature.js'
import { runDueWave } from '../../src/lib/stock/stockWaves.js'

const clock = requestClock()

/**
 * The inventory system's or POS's signed stock webhook (docs/api.md): the signature is checked
 * on the raw body before anything is parsed; an event id seen before changes nothing.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  verifyBody: ({ req, rawBody, config, log }) => {
    if (!config.stockWebhookSecret) {
      log.error('stock.webhook.misconfigured', new Error('STOCK_WEBHOOK_SECRET is not set'))
      throw new NotConfiguredError('Stock webhook is not configured')
    }
    const valid = isValidStockSignature({
      header: req.headers.get(STOCK_SIGNATURE_HEADER),
      rawBody,
      secret: config.stockWebhookSecret,
      now: clock(),
    })
    if (!valid) {
      log.warn('stock.webhook.refused', { reason: 'bad, missing or stale signature' })
      throw new UnauthorizedError('Invalid signature')
    }
  },
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
