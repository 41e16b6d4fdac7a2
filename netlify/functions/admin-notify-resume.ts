import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { resumeDelivery } from '../../src/lib/restock/resumeDelivery.js'
import { openServices } from '../../src/lib/services.js'

const required = { error: 'notificationId is required' }

/** Where a restock delivery stands; starts it again unless it is complete (docs/architecture.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({ notificationId: z.string(required).trim().min(1, required) }),
  handle: async ({ req, context, body, config, log }) =>
    resumeDelivery(
      body.notificationId,
      openServices(context, config, log, { origin: new URL(req.url).origin }),
    ),
})

export const config: Config = { path: '/api/admin/notify/resume' }
