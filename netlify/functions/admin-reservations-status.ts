import type { Config } from '@netlify/functions'
import { statusUpdateSchema } from '../../src/lib/admin/adminSchemas.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { changeReservationStatus } from '../../src/lib/reservations/changeReservationStatus.js'
import { openServices } from '../../src/lib/services.js'
import { RESERVATION_STATUSES } from '../../src/lib/storage/records.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: statusUpdateSchema(RESERVATION_STATUSES, { notes: true }),
  handle: async ({ context, body, config, log, actor }) => ({
    reservation: await changeReservationStatus(body, openServices(context, config, log, { actor })),
  }),
})

export const config: Config = { path: '/api/admin-reservations-status' }
