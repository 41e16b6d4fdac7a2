import type { Config } from '@netlify/functions'
import { customerFormEndpoint, reservationForm } from '../../src/lib/forms/customerForm.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { createReservation } from '../../src/lib/reservations/createReservation.js'

export default defineEndpoint({
  ...customerFormEndpoint,
  body: reservationForm,
  handle: async ({ body, context, config, log }) => {
    const { reservationId } = await createReservation(body, { context, config, log })
    return jsonResponse({ success: true, reservationId })
  },
})

export const config: Config = { path: '/api/reservation' }
