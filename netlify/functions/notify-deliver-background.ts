import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { bearerToken } from '../../src/lib/http/auth.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { requireDeliveryTicket, runTicketedDelivery } from '../../src/lib/restock/deliveryTicket.js'
import { requestClock } from '../../src/lib/clock.js'
import { openServices } from '../../src/lib/services.js'

const clock = requestClock()

/**
 * Background function (15-minute limit, the platform answers 202 at once) that delivers one
 * restock notification, continuing itself when its time budget runs out. Started by
 * POST /api/admin/notify/send, POST /api/admin/notify/resume and the scheduled
 * resume-stalled-deliveries with a delivery ticket (restock/deliveryTicket.ts), safe to run again:
 * settled batches are skipped, retried ones reuse their keys. Whatever it returns, the caller gets
 * Netlify's empty 202: ask the resume endpoint for state.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: (bearer, config, log) => void requireDeliveryTicket(bearer, config, log, clock()),
  body: z.object({
    notificationId: z.string({ error: 'notificationId is required' }).min(1, {
      error: 'notificationId is required',
    }),
  }),
  handle: async ({ req, context, body, config, log }) => {
    const services = openServices(context, config, log, { origin: new URL(req.url).origin })
    const run = await runTicketedDelivery(bearerToken(req), body.notificationId, services)
    return { state: run.state }
  },
})

export const config: Config = { background: true }
