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
  handle: async ({ context, config, log, body, actor }) => {
    const { searchSynonyms, audit } = openServices(context, config, log, { actor })
    await deleteSynonymGroup(searchSynonyms, body.id)
    await audit.record([
      {
        action: 'synonym-remove',
        record: { type: 'synonym', id: body.id, productSlug: null },
        from: null,
        to: null,
      },
    ])
    return { id: body.id }
  },
})

export const config: Config = { path: '/api/admin/search/synonyms/remove' }
