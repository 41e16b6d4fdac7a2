import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  searchKeywordsRequestSchema,
  summarizeSearchKeywords,
} from '../../src/lib/search/analytics/searchAnalytics.js'
import { openKeywordLogRepository } from '../../src/lib/storage/keywordLogRepository.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: searchKeywordsRequestSchema,
  handle: async ({ context, body }) => {
    const summary = await summarizeSearchKeywords(openKeywordLogRepository(context), body)
    return jsonResponse({ success: true, ...summary })
  },
})

export const config = { path: '/api/admin/search-keywords' }
