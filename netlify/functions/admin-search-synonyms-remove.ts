import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  deleteSynonymGroup,
  deleteSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openSearchSynonymRepository } from '../../src/lib/storage/searchSynonymRepository.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: deleteSynonymsRequestSchema,
  handle: async ({ context, body }) => {
    await deleteSynonymGroup(openSearchSynonymRepository(context), body.id)
    return jsonResponse({ success: true, id: body.id })
  },
})

export const config = { path: '/api/admin/search/synonyms/remove' }
