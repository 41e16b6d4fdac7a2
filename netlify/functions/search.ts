import type { Config } from '@netlify/functions'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { answerSearch } from '../../src/lib/search/query/searchService.js'
import { staffSynonymsRead } from '../../src/lib/search/query/searchSpellings.js'
import { openSearchServices } from '../../src/lib/searchServices.js'
import { originTextSource } from '../../src/lib/search/index/searchText.js'

export default defineEndpoint({
  methods: ['GET'],
  auth: 'none',
  cors: 'public',
  handle: async ({ req, context, log }) => {
    const services = openSearchServices(context, log)
    const url = new URL(req.url)
    // why: a group staff saved is used within a minute, also by an instance's first search
    await staffSynonymsRead(services, services.now())
    // why: a site over the text budget publishes its pages' text past their heads as static
    // files of the site (docs/search.md); one under it never reads this source
    const body = await answerSearch(url.searchParams, services, originTextSource(url.origin))
    // why: the answer depends only on the URL and the deployed content (§4.11, §8)
    return jsonResponse(body, { headers: { 'Cache-Control': 'public, max-age=300' } })
  },
})

// why: a literal, because Netlify reads this config from the source without running it;
// limits and reasons: README "Abuse protection"
export const config: Config = {
  path: '/api/search',
  rateLimit: { windowLimit: 300, windowSize: 60, aggregateBy: ['ip', 'domain'] },
}
