import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import {
  listSynonyms,
  listSynonymsRequestSchema,
} from '../../src/lib/search/synonyms/staffSynonyms.js'
import { openServices } from '../../src/lib/services.js'

export default defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: listSynonymsRequestSchema,
  handle: async ({ context, config, log }) =>
    listSynonyms(openServices(context, config, log).searchSynonyms),
})

export const config: Config = { path: '/api/admin/search/synonyms/list' }
