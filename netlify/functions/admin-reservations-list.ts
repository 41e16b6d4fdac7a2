import type { Config } from '@netlify/functions'
import { activeListEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { reservationResource } from '../../src/lib/reservations/reservationResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(activeListEndpoint(reservationResource))

export const config: Config = { path: '/api/admin-reservations-list' }
