import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { deliverRestockNotification } from '../../src/lib/restock/deliverRestockNotification.js'
import { deliveryOptionsFrom } from '../../src/lib/restock/deliveryWorker.js'

/**
 * Background function (15-minute limit, the platform answers 202 at once) that delivers one
 * restock notification, continuing itself when its time budget runs out. Started by
 * POST /api/admin/notify/send, POST /api/admin/notify/resume and the scheduled
 * resume-stalled-deliveries (safe: settled batches are skipped, retried ones reuse their keys).
 * Whatever it returns, the caller gets Netlify's empty 202: ask the resume endpoint for state.
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({
    notificationId: z.string({ error: 'notificationId is required' }).min(1, {
      error: 'notificationId is required',
    }),
  }),
  handle: async ({ req, context, body, config, log }) => {
    const options = deliveryOptionsFrom({ origin: new URL(req.url).origin, context, config, log })
    const run = await deliverRestockNotification(body.notificationId, options)
    return jsonResponse({ success: true, state: run.state })
  },
})

export const config: Config = { background: true }
