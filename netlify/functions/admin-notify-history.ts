import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { openDeliveryJobStore } from '../../src/lib/restock/deliveryJobStore.js'
import {
  historyListSchema,
  listNotificationHistory,
} from '../../src/lib/restock/notificationHistoryList.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: historyListSchema,
  handle: async ({ context, body }) => {
    const sources = {
      history: openRepositories(context).history,
      jobs: openDeliveryJobStore(context),
    }
    const page = await listNotificationHistory(sources, body)
    return jsonResponse({ success: true, ...page })
  },
})

export const config: Config = { path: '/api/admin/notify/history' }
