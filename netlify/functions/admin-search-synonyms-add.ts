import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import {
  addSynonymGroup,
  addSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: addSynonymsRequestSchema,
  handle: async ({ context, config, log, body, actor }) => {
    const { searchSynonyms, audit, now } = openServices(context, config, log, { actor })
    const group = await addSynonymGroup(searchSynonyms, body.words, new Date(now()))
    await audit.record([
      {
        action: 'synonym-add',
        record: { type: 'synonym', id: group.id, productSlug: null },
        from: null,
        to: group.words.join(' / '),
      },
    ])
    // why: 201, so the wrapper's plain-fields answer (200) does not fit
    return jsonResponse({ success: true, group }, { status: 201 })
  },
})

export const config: Config = { path: '/api/admin/search/synonyms' }
