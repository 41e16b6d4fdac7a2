import type { Config } from '@netlify/functions'
import { archiveListEndpoint } from '../../src/lib/endpoints/adminRecordEndpoints.js'
import { subscriptionResource } from '../../src/lib/subscriptions/subscriptionResource.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'

export default defineEndpoint(archiveListEndpoint(subscriptionResource))

export const config: Config = { path: '/api/admin/notify/archives/list' }
