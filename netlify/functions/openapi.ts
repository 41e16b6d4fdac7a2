import type { Config } from '@netlify/functions'
import { OPENAPI_JSON } from '../../src/generated/openapi.js'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { JSON_CONTENT_TYPE } from '../../src/lib/http/response.js'

export default defineEndpoint({
  methods: ['GET'],
  auth: 'none',
  cors: 'public',
  handle: async () =>
    // why: generated at build time (scripts/build-openapi.ts); it changes only with a deploy
    new Response(OPENAPI_JSON, {
      headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'public, max-age=300' },
    }),
})

export const config: Config = { path: '/api/openapi.json' }
