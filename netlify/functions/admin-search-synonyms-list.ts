import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  listSynonyms,
  listSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openSearchSynonymRepository } from '../../src/lib/storage/searchSynonymRepository.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: listSynonymsRequestSchema,
  handle: async ({ context }) => {
    const answer = await listSynonyms(openSearchSynonymRepository(context))
    return jsonResponse({ success: true, ...answer })
  },
})

export const config = { path: '/api/admin/search/synonyms/list' }
