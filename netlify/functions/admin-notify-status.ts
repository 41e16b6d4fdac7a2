import type { Config } from '@netlify/functions'
import { statusUpdateEndpoint } from '../../src/lib/admin/adminEndpoints.js'
import { subscriptionResource } from '../../src/lib/admin/adminResources.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(statusUpdateEndpoint(subscriptionResource))

export const config: Config = { path: '/api/admin-notify-status' }
