import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  historyListSchema,
  listNotificationHistory,
} from '../../src/lib/restock/notificationHistoryList.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: historyListSchema,
  handle: async ({ context, body, config, log }) => {
    const { history, deliveries } = openServices(context, config, log).repositories
    return listNotificationHistory({ history, jobs: deliveries }, body)
  },
})

export const config: Config = { path: '/api/admin/notify/history' }
