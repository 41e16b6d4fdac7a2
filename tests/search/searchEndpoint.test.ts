import { afterEach, describe, expect, it, vi } from 'vitest'
import search from '../../netlify/functions/search.js'
import { createLogger } from '../../src/lib/log.js'
import { answerSearch } from '../../src/lib/search/query/searchService.js'
import { openSearchServices } from '../../src/lib/searchServices.js'
import { KEYWORD_LOGS_STORE, openStore } from '../../src/lib/storage/blobStore.js'
import { keywordLogRepository } from '../../src/lib/storage/keywordLogRepository.js'
import { blobsContextFor, useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { readJson } from '../helpers/requests.js'

useBlobsServer()
afterEach(() => {
  vi.restoreAllMocks()
})

function searchRequest(params: Record<string, string>, method = 'GET'): Request {
  const url = new URL('http://localhost:8888/api/search')
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return new Request(url, { method })
}

async function get(params: Record<string, string>) {
  const context = fakeContext()
  const response = await search(searchRequest(params), context)
  await context.settled()
  return { ...(await readJson(response)), context }
}

function keywordLogs(context = fakeContext()) {
  return keywordLogRepository(openStore(KEYWORD_LOGS_STORE, context))
}

async function entriesOf(day: string) {
  const repository = keywordLogs()
  const keys = await repository.listKeys(`${day}/`)
  return Promise.all(keys.map((key) => repository.read(key)))
}

/** A search answered at the time `now` gives, with the services the search function opens. */
async function searchAt(q: string | Record<string, string>, now: () => number) {
  const context = fakeContext()
  const services = openSearchServices(context, createLogger(context.requestId), { now })
  const params = new URLSearchParams(typeof q === 'string' ? { q } : q)
  const body = await answerSearch(params, services)
  await context.settled()
  return { body, context }
}

const RESULT_FIELDS = [
  'id',
  'slug',
  'title',
  'description',
  'tags',
  'createdAt',
  'excerpt',
  'highlighted_title',
  'highlighted_excerpt',
  'score',
]

describe('GET /api/search', () => {
  it('answers every §2.5 field, sorted by score, with the §4.11 headers', async () => {
    const { status, headers, body } = await get({ q: '入荷' })
    expect(status).toBe(200)
    expect(headers.get('cache-control')).toBe('public, max-age=300')
    expect(headers.get('access-control-allow-origin')).toBe('*')
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(body.query).toBe('入荷')
    expect(body.totalResults).toBe(body.results.length)
    expect(body.results.length).toBeGreaterThan(1)
    for (const result of body.results)
      expect(Object.keys(result).sort()).toEqual([...RESULT_FIELDS].sort())
    const scores = body.results.map((result: { score: number }) => result.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    const notice = body.results.find(
      (result: { id: string }) => result.id === 'news/yoyaku-shohin-nyuka',
    )
    expect(notice).toMatchObject({
      slug: '/news/yoyaku-shohin-nyuka',
      title: '予約商品の入荷のお知らせ',
      highlighted_title: '予約商品の<mark>入荷</mark>のお知らせ',
      tags: ['お知らせ', '予約', '入荷'],
      createdAt: '2026-11-10',
    })
    expect(notice.highlighted_excerpt).toContain('<mark>入荷</mark>')
    expect(notice.excerpt).toContain('入荷')
  })

  it.each<Record<string, string>>([{}, { q: '' }, { q: '   ' }])(
    'answers an empty result for a missing or blank q (%o)',
    async (params) => {
      const { status, body } = await get(params)
      expect(status).toBe(200)
      expect(body).toEqual({ results: [], query: '', totalResults: 0 })
    },
  )

  it('normalizes the query: trimmed, full-width folded, lower-cased, cut at 200 characters', async () => {
    expect((await get({ q: '  ＴＯＫＯＮＡＭＥ  ' })).body.query).toBe('tokoname')
    const long = await get({ q: `${'あ'.repeat(250)}` })
    expect(long.status).toBe(200)
    expect(long.body.query).toBe('あ'.repeat(200))
  })

  it.each([
    ['10', 50],
    ['1000', 500],
    ['abc', 200],
    ['', 200],
    ['120', 120],
  ])('excerpt_length=%s gives excerpts of at most %i characters', async (raw, expected) => {
    const { status, body } = await get({ q: 'pre-order', excerpt_length: raw })
    expect(status).toBe(200)
    const guide = body.results.find(
      (result: { id: string }) => result.id === 'guides/how-to-preorder',
    )
    // why: this guide's text is longer than 500 characters, so the excerpt is cut near the limit
    const length = Array.from(guide.excerpt as string).length
    expect(length).toBeLessThanOrEqual(expected)
    expect(length).toBeGreaterThan(expected - 3)
  })

  it('marks Japanese and Latin matches and never lets markup through', async () => {
    const { body } = await get({ q: 'Tokoname 急須' })
    expect(body.results[0].id).toBe('products/kyusu-tokoname')
    expect(body.results[0].highlighted_title).toBe(
      '<mark>Tokoname</mark> 朱泥<mark>急須</mark> 360ml 平形',
    )
    for (const q of ['<script>alert(1)</script>', '急須"><img src=x>', 'a&b <mark>']) {
      const answer = await get({ q })
      expect(answer.status).toBe(200)
      for (const result of answer.body.results) {
        for (const html of [result.highlighted_title, result.highlighted_excerpt]) {
          expect(html.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/)
        }
      }
    }
  })

  it('answers a CORS preflight and refuses other methods', async () => {
    const preflight = await search(searchRequest({}, 'OPTIONS'), fakeContext())
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const post = await readJson(await search(searchRequest({ q: 'x' }, 'POST'), fakeContext()))
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, OPTIONS')
    expect(post.body).toEqual({ success: false, error: 'Method not allowed' })
  })

  it('logs every search, zero-result ones included, in the keyword-logs store', async () => {
    // why: the answer's clock stamps the entry, a moment before midnight (UTC)
    const now = () => Date.parse('2026-11-24T23:59:59.900Z')
    const before = (await entriesOf('2026-11-24')).length
    const found = await searchAt('Ｄｒｉｐ 珈琲', now)
    const nothing = await searchAt('qqqzzzxxx', now)
    const empty = await searchAt('', now)
    expect(found.context.deferred).toHaveLength(1)
    expect(empty.context.deferred).toHaveLength(0)
    const entries = await entriesOf('2026-11-24')
    expect(entries).toHaveLength(before + 2)
    expect(entries).toContainEqual({
      keyword: 'drip 珈琲',
      timestamp: '2026-11-24T23:59:59.900Z',
      resultCount: found.body.totalResults,
    })
    expect(entries).toContainEqual(
      expect.objectContaining({ keyword: 'qqqzzzxxx', resultCount: 0 }),
    )
    expect(nothing.body.totalResults).toBe(0)
    // why: the search function logs its searches as well, one write after each answer
    expect((await get({ q: 'Ｄｒｉｐ 珈琲' })).context.deferred).toHaveLength(1)
    expect((await get({ q: '' })).context.deferred).toHaveLength(0)
  })

  it('answers the widget’s as-you-type requests (typing=1) alike and logs only the others', async () => {
    const now = () => Date.parse('2026-11-25T03:00:00.000Z')
    const before = (await entriesOf('2026-11-25')).length
    const typed = await searchAt({ q: 'kette', typing: '1' }, now)
    const plain = await searchAt({ q: 'kette' }, now)
    expect(typed.body).toEqual(plain.body)
    expect(typed.context.deferred).toHaveLength(0)
    const entries = await entriesOf('2026-11-25')
    expect(entries).toHaveLength(before + 1)
    expect(entries.filter((entry) => entry?.keyword === 'kette')).toHaveLength(1)
    // why: the function answers it as any search, cacheable under its own URL
    const viaFunction = await get({ q: 'kette', typing: '1' })
    expect(viaFunction.status).toBe(200)
    expect(viaFunction.headers.get('cache-control')).toBe('public, max-age=300')
  })

  it('answers normally when the keyword log cannot be written', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    // why: a port nobody listens on makes every blob write fail with a network error
    process.env.NETLIFY_BLOBS_CONTEXT = blobsContextFor('http://127.0.0.1:9')
    const { status, body } = await get({ q: '急須' })
    expect(status).toBe(200)
    expect(body.results[0].id).toBe('products/kyusu-tokoname')
    expect(errors.mock.calls.flat().join('\n')).toContain('search.keyword_log_failed')

    delete process.env.NETLIFY_BLOBS_CONTEXT
    const withoutBlobs = await get({ q: '急須' })
    expect(withoutBlobs.status).toBe(200)
    expect(withoutBlobs.body.totalResults).toBe(body.totalResults)
  })
})
