import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openDeliveryJobStore } from '../../src/lib/restock/deliveryJobStore.js'
import { startDeliveryFrom } from '../../src/lib/restock/deliveryWorker.js'
import {
  parseSendRequest,
  sendRestockNotification,
} from '../../src/lib/restock/sendRestockNotification.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'
import { openAuditRecorder } from '../../src/lib/audit/openAuditRecorder.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  // why: §4.8 fixes the order of the field messages, which parseSendRequest checks by hand
  body: z.record(z.string(), z.unknown()),
  handle: async ({ req, context, body, config, log, actor }) => {
    const request = parseSendRequest(body)
    const summary = await sendRestockNotification(request, {
      repositories: openRepositories(context),
      jobs: openDeliveryJobStore(context),
      config,
      log,
      startDelivery: startDeliveryFrom({ origin: new URL(req.url).origin, context, config, log }),
    })
    await openAuditRecorder(context, actor, log)?.record([
      {
        action: 'send',
        record: {
          type: 'notification',
          id: summary.notificationId,
          productSlug: request.productSlug,
        },
        from: null,
        to: String(summary.sentCount),
      },
    ])
    return jsonResponse(summary)
  },
})

export const config: Config = { path: '/api/admin/notify/send' }
