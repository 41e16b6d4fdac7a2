import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  parseSendRequest,
  sendRestockNotification,
} from '../../src/lib/restock/sendRestockNotification.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  // why: §4.8 fixes the order of the field messages, which parseSendRequest checks by hand
  body: z.record(z.string(), z.unknown()),
  handle: async ({ req, context, body, config, log }) =>
    sendRestockNotification(
      parseSendRequest(body),
      openServices(context, config, log, { origin: new URL(req.url).origin }),
    ),
})

export const config: Config = { path: '/api/admin/notify/send' }
