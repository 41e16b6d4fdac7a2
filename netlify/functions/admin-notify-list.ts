import type { Config } from '@netlify/functions'
import { activeListEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { subscriptionResource } from '../../src/lib/subscriptions/subscriptionResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(activeListEndpoint(subscriptionResource))

export const config: Config = { path: '/api/admin-notify-list' }
