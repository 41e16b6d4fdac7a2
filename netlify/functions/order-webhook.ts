import type { Config } from '@netlify/functions'
import { SYSTEM_ACTORS } from '../../src/lib/actors.js'
import { requestClock } from '../../src/lib/clock.js'
import { signedWebhookCheck } from '../../src/lib/endpoints/signedWebhook.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { orderWebhookSchema } from '../../src/lib/orders/orderSchemas.js'
import { receiveOrder } from '../../src/lib/orders/receiveOrder.js'
import { openServices } from '../../src/lib/services.js'

/** Options of `orderWebhook`. */
export interface OrderWebhookOptions {
  /** The clock of the signature's timestamp check and of the order. Default: `Date.now`. */
  now?: () => number
}

/**
 * The checkout's signed order webhook (docs/api.md): the signature (`X-Order-Signature`,
 * `ORDER_WEBHOOK_SECRET`) is checked on the raw body before anything is parsed; an order id seen
 * before changes nothing. The deployed function is `orderWebhook()`, on the wall clock.
 */
export function orderWebhook({ now }: OrderWebhookOptions = {}) {
  const clock = requestClock(now)
  return defineEndpoint({
    methods: ['POST'],
    auth: 'none',
    verifyBody: signedWebhookCheck({
      kind: 'order',
      secretOf: (config) => config.orderWebhookSecret,
      variable: 'ORDER_WEBHOOK_SECRET',
      now: clock,
    }),
    body: orderWebhookSchema,
    handle: async ({ context, body, config, log }) => {
      const services = openServices(context, config, log, {
        actor: SYSTEM_ACTORS.orderWebhook,
        now: clock,
      })
      const outcome = await receiveOrder(body, {
        repositories: services.repositories,
        audit: services.audit,
        log,
        now: services.now,
        attributionDays: config.attributionDays,
        clickSecret: config.unsubscribeSecret,
      })
      if (outcome.duplicate) return { duplicate: true }
      return {
        duplicate: false,
        products: outcome.products,
        ...(outcome.errors.length > 0 ? { errors: outcome.errors } : {}),
      }
    },
  })
}

export default orderWebhook()

export const config: Config = { path: '/api/order-webhook' }
