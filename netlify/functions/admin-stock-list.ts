import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { listStock } from '../../src/lib/stock/stockList.js'
import { quotaAnswer } from '../../src/lib/notifiers/linePusher.js'

/**
 * Every product's stock, waiting subscribers and automatic-notice settings, and the quiet hours
 * (the dashboard asks before a manual send inside them), and the LINE quota of the month (it
 * warns before a send that would pass it) (docs/api.md).
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context, config, log }) => {
    const services = openServices(context, config, log)
    const [stock, line] = await Promise.all([
      listStock(services.repositories, config.quietHours),
      services.lineQuota(),
    ])
    return { stock, quietHours: config.quietHours, line: line && quotaAnswer(line) }
  },
})

export const config: Config = { path: '/api/admin/stock/list' }
