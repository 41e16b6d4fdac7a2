import type { Config } from '@netlify/functions'
import { bulkActionEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { subscriptionResource } from '../../src/lib/subscriptions/subscriptionResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(bulkActionEndpoint(subscriptionResource, 'archive'))

export const config: Config = { path: '/api/admin/notify/archive' }
