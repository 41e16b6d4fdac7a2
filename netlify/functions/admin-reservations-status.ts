import type { Config } from '@netlify/functions'
import { statusUpdateSchema } from '../../src/lib/admin/adminSchemas.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { changeReservationStatus } from '../../src/lib/reservations/changeReservationStatus.js'
import { RESERVATION_STATUSES } from '../../src/lib/storage/records.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: statusUpdateSchema(RESERVATION_STATUSES, { notes: true }),
  handle: async ({ context, body, config, log }) => {
    const reservation = await changeReservationStatus(body, { context, config, log })
    return jsonResponse({ success: true, reservation })
  },
})

export const config: Config = { path: '/api/admin-reservations-status' }
