import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'
import { SEARCH_DATA_ID } from '../../src/generated/siteContent.js'

let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: ADMIN_TOKEN })
})
afterAll(async () => server?.stop())

async function keywordSummary(): Promise<{ totalSearches: number; topQueries: unknown[] }> {
  const response = await fetch(`${server.url}/api/admin/search-keywords`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ days: 1, limit: 100 }),
  })
  expect(response.status).toBe(200)
  return response.json()
}

describe('search over HTTP through the local Netlify emulation', () => {
  it('answers a Japanese search with the §4.11 headers and logs the keyword', async () => {
    const query = `入荷 e2e${Date.now()}`
    const response = await fetch(`${server.url}/api/search?q=${encodeURIComponent(query)}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const body = await response.json()
    expect(body.results.map((result: { id: string }) => result.id)).toContain(
      'news/yoyaku-shohin-nyuka',
    )

    // why: the log is written after the answer, through context.waitUntil
    let summary = await keywordSummary()
    for (let attempt = 0; attempt < 20 && !JSON.stringify(summary).includes(query); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      summary = await keywordSummary()
    }
    expect(summary.topQueries).toContainEqual({ query, count: 1 })
  })

  it('answers an excerpt from past a page head, and publishes the text shards', async () => {
    const response = await fetch(
      `${server.url}/api/search?q=${encodeURIComponent('ship internationally')}`,
    )
    expect(response.status).toBe(200)
    const { results } = await response.json()
    expect(results[0].highlighted_excerpt).toMatch(/<mark>ship<\/mark>/i)
    // why: the deployed function fetches these from the site (docs/search.md, issue 21)
    const [name] = readdirSync(`public/search-text/${SEARCH_DATA_ID}`)
    const shard = await fetch(`${server.url}/search-text/${SEARCH_DATA_ID}/${name}`)
    expect(shard.status).toBe(200)
    expect(Object.keys(await shard.json()).length).toBeGreaterThan(0)
  })

  it('answers POST with 405 and Allow', async () => {
    const response = await fetch(`${server.url}/api/search?q=x`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, OPTIONS')
  })
})
