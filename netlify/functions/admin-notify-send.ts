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
import { openComplianceStores } from '../../src/lib/storage/complianceStores.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  // why: §4.8 fixes the order of the field messages, which parseSendRequest checks by hand
  body: z.record(z.string(), z.unknown()),
  handle: async ({ req, context, body, config, log }) => {
    const summary = await sendRestockNotification(parseSendRequest(body), {
      repositories: openRepositories(context),
      suppressions: openComplianceStores(context).suppressions,
      jobs: openDeliveryJobStore(context),
      config,
      log,
      startDelivery: startDeliveryFrom({ origin: new URL(req.url).origin, context, config, log }),
    })
    return jsonResponse(summary)
  },
})

export const config: Config = { path: '/api/admin/notify/send' }
