import type { Config } from '@netlify/functions'
import { bulkActionEndpoint } from '../../src/lib/admin/adminEndpoints.js'
import { subscriptionResource } from '../../src/lib/admin/adminResources.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(bulkActionEndpoint(subscriptionResource, 'unarchive'))

export const config: Config = { path: '/api/admin/notify/unarchive' }
