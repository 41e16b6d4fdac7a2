import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  searchKeywordsRequestSchema,
  summarizeSearchKeywords,
} from '../../src/lib/search/analytics/searchAnalytics.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: searchKeywordsRequestSchema,
  handle: async ({ context, body, config, log }) => {
    const services = openServices(context, config, log)
    return summarizeSearchKeywords(services.keywordLog, { ...body, now: services.now() })
  },
})

export const config = { path: '/api/admin/search-keywords' }
