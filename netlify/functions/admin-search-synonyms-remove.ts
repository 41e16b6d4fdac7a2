import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  deleteSynonymGroup,
  deleteSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: deleteSynonymsRequestSchema,
  handle: async ({ context, config, log, body }) => {
    await deleteSynonymGroup(openServices(context, config, log).searchSynonyms, body.id)
    return { id: body.id }
  },
})

export const config: Config = { path: '/api/admin/search/synonyms/remove' }
