import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { autoNoticeSchema, saveAutoNotice } from '../../src/lib/stock/autoNotice.js'

/** A product's automatic restock notice: on/off, texts, perUnit, intervalMinutes (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: autoNoticeSchema,
  handle: async ({ context, body, config, log, actor }) => {
    const services = openServices(context, config, log, { actor })
    const auto = await saveAutoNotice(body, services.repositories.stock, services.audit)
    log.info('stock.auto.saved', { productSlug: body.productSlug, enabled: auto.enabled })
    return { productSlug: body.productSlug, auto }
  },
})

export const config: Config = { path: '/api/admin/notify/auto' }
