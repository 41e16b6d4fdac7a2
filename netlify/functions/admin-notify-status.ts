import type { Config } from '@netlify/functions'
import { statusUpdateEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { subscriptionResource } from '../../src/lib/subscriptions/subscriptionResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(statusUpdateEndpoint(subscriptionResource))

export const config: Config = { path: '/api/admin-notify-status' }
