import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { openServices } from '../../src/lib/services.js'
import { autoNoticeSchema, saveAutoNotice } from '../../src/lib/stock/autoNotice.js'

/**
 * A product's (or a variant's, or every variant's) automatic restock notice: on/off, texts,
 * perUnit, intervalMinutes (docs/api.md).
 */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: autoNoticeSchema,
  handle: async ({ context, body, config, log, actor }) => {
    const services = openServices(context, config, log, { actor })
    const saved = await saveAutoNotice(body, services.repositories.stock, services.audit)
    const [first] = saved
    log.info('stock.auto.saved', {
      productSlug: body.productSlug,
      ...(body.variant === undefined ? {} : { variant: body.variant }),
      enabled: first.auto.enabled,
    })
    // why: a product without variants (or one variant) answers as it always did
    if (saved.length === 1) return { productSlug: body.productSlug, ...first }
    return { productSlug: body.productSlug, auto: first.auto, variants: saved }
  },
})

export const config: Config = { path: '/api/admin/notify/auto' }
