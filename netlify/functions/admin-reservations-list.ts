import type { Config } from '@netlify/functions'
import { activeListEndpoint } from '../../src/lib/admin/adminEndpoints.js'
import { reservationResource } from '../../src/lib/admin/adminResources.js'

export default activeListEndpoint(reservationResource)

export const config: Config = { path: '/api/admin-reservations-list' }
