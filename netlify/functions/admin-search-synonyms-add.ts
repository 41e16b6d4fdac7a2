import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  addSynonymGroup,
  addSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openSearchSynonymRepository } from '../../src/lib/storage/searchSynonymRepository.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: addSynonymsRequestSchema,
  handle: async ({ context, body }) => {
    const group = await addSynonymGroup(
      openSearchSynonymRepository(context),
      body.words,
      new Date(),
    )
    return jsonResponse({ success: true, group }, { status: 201 })
  },
})

export const config = { path: '/api/admin/search/synonyms' }
