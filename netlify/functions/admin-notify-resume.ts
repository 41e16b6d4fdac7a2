import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openDeliveryJobStore } from '../../src/lib/restock/deliveryJobStore.js'
import { startDeliveryFrom } from '../../src/lib/restock/deliveryWorker.js'
import { resumeDelivery } from '../../src/lib/restock/resumeDelivery.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

const required = { error: 'notificationId is required' }

/** Where a restock delivery stands; starts it again unless it is complete (docs/architecture.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({ notificationId: z.string(required).trim().min(1, required) }),
  handle: async ({ req, context, body, config, log }) => {
    const answer = await resumeDelivery(body.notificationId, {
      history: openRepositories(context).history,
      jobs: openDeliveryJobStore(context),
      config,
      log,
      startDelivery: startDeliveryFrom({ origin: new URL(req.url).origin, context, config, log }),
    })
    return jsonResponse(answer)
  },
})

export const config: Config = { path: '/api/admin/notify/resume' }
