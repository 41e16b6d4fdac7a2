import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'

let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: 'e2e-variants-admin-token' })
})
afterAll(async () => server?.stop())

async function get(path: string): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${server.url}${path}`)
  return { status: response.status, headers: response.headers, body: await response.json() }
}

async function searchIds(query: string): Promise<string[]> {
  const { status, body } = await get(`/api/search?q=${encodeURIComponent(query)}`)
  expect(status, query).toBe(200)
  return body.results.map((result: { id: string }) => result.id)
}

// why: the kinds of spelling variants (docs/search.md, "Decision: spelling variants"), each as
// a shopper types it, with the sample shop's page it must find
const VARIANT_QUERIES: [query: string, page: string][] = [
  ['コーヒー', 'guides/mizudashi-coffee-tsukurikata'],
  ['ｺｰﾋｰ', 'guides/mizudashi-coffee-tsukurikata'],
  ['こーひー', 'guides/mizudashi-coffee-tsukurikata'],
  ['チャセン', 'products/chasen-takayama'],
  ['ちゃせん', 'products/chasen-takayama'],
  ['kettel', 'news/overseas-shipping'],
  ['kettle', 'news/overseas-shipping'],
  ['matcha', 'guides/matcha-tatekata'],
]

describe('search as Japanese shoppers type it, over `npm start`', () => {
  it('finds the page of every kind of variant a shopper types', async () => {
    for (const [query, page] of VARIANT_QUERIES)
      expect(await searchIds(query), query).toContain(page)
    // why: hiragana and half-width find exactly what the page's own katakana finds
    expect(await searchIds('こーひー')).toEqual(await searchIds('コーヒー'))
    expect((await searchIds('ちゃせん'))[0]).toBe('products/chasen-takayama')
  })

  it('marks what a synonym matched', async () => {
    const { body } = await get(`/api/search?q=matcha`)
    const page = body.results.find(
      (result: { id: string }) => result.id === 'guides/matcha-tatekata',
    )
    expect(page.highlighted_title).toContain('<mark>抹茶</mark>')
  })

  it('completes titles and tags from what was typed, cached like the search', async () => {
    const { status, headers, body } = await get(`/api/search/suggest?q=${encodeURIComponent('抹')}`)
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('public, max-age=300')
    expect(headers.get('access-control-allow-origin')).toBe('*')
    expect(body.query).toBe('抹')
    expect(body.suggestions.length).toBeLessThanOrEqual(8)
    expect(body.suggestions).toContainEqual({ text: '抹茶', kind: 'tag', slug: null })
    expect(body.suggestions).toContainEqual({
      text: '抹茶の点て方 — 茶筅ひとつで始めるおうち茶道',
      kind: 'title',
      slug: '/guides/matcha-tatekata',
    })
    const hiragana = await get(`/api/search/suggest?q=${encodeURIComponent('こー')}`)
    expect(hiragana.body.suggestions).toContainEqual({ text: 'コーヒー', kind: 'tag', slug: null })
    expect((await get('/api/search/suggest?q=')).body).toEqual({ query: '', suggestions: [] })
    const post = await fetch(`${server.url}/api/search/suggest?q=x`, { method: 'POST' })
    expect(post.status).toBe(405)
  })
})
