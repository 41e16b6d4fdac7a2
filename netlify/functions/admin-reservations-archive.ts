import type { Config } from '@netlify/functions'
import { bulkActionEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { reservationResource } from '../../src/lib/reservations/reservationResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(bulkActionEndpoint(reservationResource, 'archive'))

export const config: Config = { path: '/api/admin/reservations/archive' }
