import { existsSync } from 'node:fs'
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

  it('answers an excerpt from past a page head out of the function, and publishes no text shards', async () => {
    // why: `months` ends a page past its first 512 characters (TEXT_HEAD_CHARS)
    const response = await fetch(`${server.url}/api/search?q=months`)
    expect(response.status).toBe(200)
    const { results } = await response.json()
    expect(results[0].id).toBe('guides/how-to-preorder')
    expect(results[0].highlighted_excerpt).toContain('<mark>months</mark>')
    // why: the sample content stays under the text budget (docs/search.md, "Package size")
    expect(existsSync(`public/search-text/${SEARCH_DATA_ID}`)).toBe(false)
    const shard = await fetch(`${server.url}/search-text/${SEARCH_DATA_ID}/0.json`)
    expect(shard.status).toBe(404)
  })

  it('finds the shop’s kanji products by the readings shoppers type', async () => {
    const first = async (q: string): Promise<string | undefined> => {
      const response = await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`)
      expect(response.status).toBe(200)
      return (await response.json()).results[0]?.id
    }
    const expected: [string, string][] = [
      ['きゅうす', 'products/kyusu-tokoname'],
      ['キュウス', 'products/kyusu-tokoname'],
      ['kyuusu', 'products/kyusu-tokoname'],
      ['kyusu', 'products/kyusu-tokoname'],
      ['てつびん', 'products/nambu-tekki-kettle'],
      ['tetsubin', 'products/nambu-tekki-kettle'],
      ['ちゃせん', 'products/chasen-takayama'],
      ['chasen', 'products/chasen-takayama'],
      ['matcha', 'products/kiyomizu-matcha-chawan'],
      ['南部鉄器 ・ 鉄瓶', 'products/nambu-tekki-kettle'],
    ]
    for (const [q, id] of expected) expect([q, await first(q)]).toEqual([q, id])
  })

  it('answers POST with 405 and Allow', async () => {
    const response = await fetch(`${server.url}/api/search?q=x`, { method: 'POST' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, OPTIONS')
  })
})

describe('staff synonyms through the local Netlify emulation, where every request is a new worker', () => {
  /** The ids `q` finds, and the completions it gets. */
  async function find(q: string): Promise<{ ids: string[]; suggestions: string[] }> {
    const search = await fetch(`${server.url}/api/search?q=${encodeURIComponent(q)}`)
    const suggest = await fetch(`${server.url}/api/search/suggest?q=${encodeURIComponent(q)}`)
    expect([search.status, suggest.status]).toEqual([200, 200])
    const { results } = (await search.json()) as { results: { id: string }[] }
    const { suggestions } = (await suggest.json()) as { suggestions: { text: string }[] }
    return { ids: results.map((result) => result.id), suggestions: suggestions.map((s) => s.text) }
  }

  it('uses a group staff saved within the minute the README promises', async () => {
    expect((await find('ironpot')).ids).toEqual([])
    const added = await fetch(`${server.url}/api/admin/search/synonyms`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ words: ['鉄瓶', 'ironpot', 'kettle'] }),
    })
    expect(added.status).toBe(201)
    const savedAt = Date.now()
    let found = await find('ironpot')
    // why: the promise is a minute; a search that waited too long for Blobs answers without
    // the group and the next one tries again
    while (!found.ids.includes('products/nambu-tekki-kettle') && Date.now() - savedAt < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      found = await find('ironpot')
    }
    expect(found.ids).toContain('products/nambu-tekki-kettle')
    expect(found.suggestions).toContain('南部鉄器 鉄瓶 Arare あられ 1.2L')
  }, 90_000)
})
