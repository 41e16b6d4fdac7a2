import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  findReservation,
  findReservationSchema,
} from '../../src/lib/reservations/preorderOverview.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: findReservationSchema,
  handle: async ({ body, context, config, log }) => ({
    reservation: await findReservation(body.id, openServices(context, config, log)),
  }),
})

export const config: Config = { path: '/api/admin/reservations/find' }
