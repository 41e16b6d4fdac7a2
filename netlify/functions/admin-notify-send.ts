import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { sendRestockNotification } from '../../src/lib/restock/sendRestockNotification.js'
import { parseSendRequest } from '../../src/lib/restock/sendRequest.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  // why: §4.8 fixes the order of the field messages, which parseSendRequest checks by hand
  body: z.record(z.string(), z.unknown()),
  handle: async ({ req, context, body, config, log, actor }) =>
    sendRestockNotification(
      parseSendRequest(body),
      openServices(context, config, log, { origin: new URL(req.url).origin, actor }),
    ),
})

export const config: Config = { path: '/api/admin/notify/send' }
