import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { spellingGroups, staffSynonymsRead } from '../../src/lib/search/query/searchSpellings.js'
import { answerSuggest } from '../../src/lib/search/suggest/suggestions.js'
import { openSearchServices } from '../../src/lib/searchServices.js'

export default defineEndpoint({
  methods: ['GET'],
  auth: 'none',
  cors: 'public',
  handle: async ({ req, context, log }) => {
    // why: completions also go through the variants and synonyms the search uses, staff ones
    // brought up to date as a search does
    const services = openSearchServices(context, log)
    const now = services.now()
    await staffSynonymsRead(services, now)
    const groups = spellingGroups(services, now)
    const body = answerSuggest(new URL(req.url).searchParams, groups)
    // why: the answer depends only on the URL and the deployed content, as a search's does
    return jsonResponse(body, { headers: { 'Cache-Control': 'public, max-age=300' } })
  },
})

// why: a literal, because Netlify reads this config from the source without running it; a
// shopper's typing asks once per pause (the widget waits 150 ms), so more than a search
export const config: Config = {
  path: '/api/search/suggest',
  rateLimit: { windowLimit: 600, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
