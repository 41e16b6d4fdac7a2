import type { Config } from '@netlify/functions'
import { z } from '../../src/generated/zod.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { preorderOverview } from '../../src/lib/reservations/preorderOverview.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({}),
  handle: async ({ context, config, log }) => ({
    products: await preorderOverview(openServices(context, config, log)),
  }),
})

export const config: Config = { path: '/api/admin/reservations/products' }
