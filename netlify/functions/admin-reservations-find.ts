import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  findReservation,
  findReservationSchema,
} from '../../src/lib/reservations/preorderOverview.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: findReservationSchema,
  handle: async ({ body, context }) => {
    const reservation = await findReservation(body.id, { context })
    return jsonResponse({ success: true, reservation })
  },
})

export const config: Config = { path: '/api/admin/reservations/find' }
