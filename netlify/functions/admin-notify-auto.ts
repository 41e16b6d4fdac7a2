import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { HttpError } from '../../src/lib/http/errors.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  AutoNoticeTextMissing,
  autoNoticeSchema,
  saveAutoNotice,
} from '../../src/lib/stock/autoNotice.js'
import { openRepositories } from '../../src/lib/storage/repositories.js'

/** A product's automatic restock notice: on/off, texts, perUnit, intervalMinutes (docs/api.md). */
export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: autoNoticeSchema,
  handle: async ({ context, body, log }) => {
    let auto
    try {
      auto = await saveAutoNotice(body, openRepositories(context).stock)
    } catch (error) {
      if (error instanceof AutoNoticeTextMissing) throw new HttpError(400, error.message)
      throw error
    }
    if (!auto) throw new HttpError(404, 'Product not found')
    log.info('stock.auto.saved', { productSlug: body.productSlug, enabled: auto.enabled })
    return jsonResponse({ success: true, productSlug: body.productSlug, auto })
  },
})

export const config: Config = { path: '/api/admin/notify/auto' }
