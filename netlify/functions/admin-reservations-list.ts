import type { Config } from '@netlify/functions'
import { activeListEndpoint } from '../../src/lib/admin/adminEndpoints.js'
import { reservationResource } from '../../src/lib/admin/adminResources.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(activeListEndpoint(reservationResource))

export const config: Config = { path: '/api/admin-reservations-list' }
