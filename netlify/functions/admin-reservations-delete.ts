import type { Config } from '@netlify/functions'
import { bulkActionEndpoint } from '../../src/lib/admin/adminEndpoints.js'
import { reservationResource } from '../../src/lib/admin/adminResources.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(bulkActionEndpoint(reservationResource, 'delete'))

export const config: Config = { path: '/api/admin/reservations/delete' }
