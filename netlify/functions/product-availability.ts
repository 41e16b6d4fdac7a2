import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  AVAILABILITY_MAX_AGE_S,
  productAvailability,
} from '../../src/lib/reservations/productAvailability.js'
import { openServices } from '../../src/lib/services.js'

const PATH = /^\/api\/products\/([^/]+)\/availability\/?$/

export default defineEndpoint({
  methods: ['GET'],
  auth: 'none',
  handle: async ({ req, context, config, log }) => {
    const slug = decodeURIComponent(PATH.exec(new URL(req.url).pathname)?.[1] ?? '')
    const availability = await productAvailability(slug, openServices(context, config, log))
    return jsonResponse(
      { success: true, ...availability, lineSignup: config.line !== null },
      // why: storefronts ask this on every product view; 30 s old is fresh enough for a count
      { headers: { 'Cache-Control': `public, max-age=${AVAILABILITY_MAX_AGE_S}` } },
    )
  },
})

export const config: Config = {
  path: '/api/products/:slug/availability',
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
