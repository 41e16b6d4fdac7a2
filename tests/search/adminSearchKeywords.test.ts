import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import adminSearchKeywords from '../../netlify/functions/admin-search-keywords.js'
import search from '../../netlify/functions/search.js'
import { KEYWORD_LOGS_STORE, openStore } from '../../src/lib/storage/blobStore.js'
import {
  keywordLogRepository,
  type KeywordLogEntry,
} from '../../src/lib/storage/keywordLogRepository.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

const DAY_MS = 24 * 60 * 60 * 1000

function daysAgo(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString()
}

const seeded: KeywordLogEntry[] = [
  { keyword: 'Tokoname', timestamp: daysAgo(0), resultCount: 3 },
  { keyword: ' ｔｏｋｏｎａｍｅ ', timestamp: daysAgo(1), resultCount: 3 },
  { keyword: 'tokoname', timestamp: daysAgo(6), resultCount: 3 },
  { keyword: '急須', timestamp: daysAgo(0), resultCount: 8 },
  { keyword: '急須', timestamp: daysAgo(2), resultCount: 8 },
  { keyword: 'ｚｚｚ', timestamp: daysAgo(0), resultCount: 0 },
  { keyword: 'zzz', timestamp: daysAgo(3), resultCount: 0 },
  { keyword: 'ほうじ茶ラテ', timestamp: daysAgo(1), resultCount: 0 },
  { keyword: '鉄瓶', timestamp: daysAgo(20), resultCount: 4 },
  { keyword: 'old', timestamp: daysAgo(45), resultCount: 0 },
]

useBlobsServer()
beforeAll(async () => {
  vi.stubEnv('ADMIN_API_TOKEN', ADMIN_TOKEN)
  const repository = keywordLogRepository(openStore(KEYWORD_LOGS_STORE, fakeContext()))
  await Promise.all(seeded.map((entry) => repository.append(entry)))
})
afterAll(() => {
  vi.unstubAllEnvs()
})

async function post(body: unknown, token: string | null = ADMIN_TOKEN) {
  const request = jsonRequest('/api/admin/search-keywords', body, { token })
  return readJson(await adminSearchKeywords(request, fakeContext()))
}

describe('POST /api/admin/search-keywords', () => {
  it('counts normalized queries of the last days, top and zero-result ones', async () => {
    const { status, body } = await post({ days: 7 })
    expect(status).toBe(200)
    expect(body).toEqual({
      success: true,
      from: expect.any(String),
      to: expect.any(String),
      totalSearches: 8,
      topQueries: [
        { query: 'tokoname', count: 3 },
        { query: 'zzz', count: 2 },
        { query: '急須', count: 2 },
        { query: 'ほうじ茶ラテ', count: 1 },
      ],
      zeroResultQueries: [
        { query: 'zzz', count: 2 },
        { query: 'ほうじ茶ラテ', count: 1 },
      ],
    })
    const from = new Date(body.from)
    expect(body.from).toBe(
      new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10) + 'T00:00:00.000Z',
    )
    expect(new Date(body.to).getTime()).toBeGreaterThan(from.getTime())
  })

  it('defaults to 30 days and 20 queries, and honours limit', async () => {
    const thirty = await post({})
    expect(thirty.body.totalSearches).toBe(9)
    expect(thirty.body.topQueries).toContainEqual({ query: '鉄瓶', count: 1 })
    const ninety = await post({ days: 90 })
    expect(ninety.body.zeroResultQueries).toContainEqual({ query: 'old', count: 1 })
    const limited = await post({ days: 90, limit: 1 })
    expect(limited.body.topQueries).toEqual([{ query: 'tokoname', count: 3 }])
    expect(limited.body.zeroResultQueries).toEqual([{ query: 'zzz', count: 2 }])
  })

  it('counts searches made through GET /api/search', async () => {
    const before = (await post({ days: 1 })).body.totalSearches
    const context = fakeContext()
    await search(new Request('http://localhost:8888/api/search?q=HARIO%20V60'), context)
    await context.settled()
    const after = await post({ days: 1 })
    expect(after.body.totalSearches).toBe(before + 1)
    expect(after.body.topQueries).toContainEqual({ query: 'hario v60', count: 1 })
  })

  it.each([
    [{ days: 0 }, 'days must be an integer between 1 and 90'],
    [{ days: 91 }, 'days must be an integer between 1 and 90'],
    [{ days: 1.5 }, 'days must be an integer between 1 and 90'],
    [{ days: '7' }, 'days must be an integer between 1 and 90'],
    [{ limit: 0 }, 'limit must be an integer between 1 and 100'],
    [{ limit: 101 }, 'limit must be an integer between 1 and 100'],
    [{ limit: null }, 'limit must be an integer between 1 and 100'],
  ])('rejects %o with 400', async (body, error) => {
    expect(await post(body)).toMatchObject({ status: 400, body: { success: false, error } })
  })

  it('answers 401 without the admin token', async () => {
    expect(await post({}, null)).toMatchObject({
      status: 401,
      body: { success: false, error: 'Unauthorized' },
    })
    expect((await post({}, 'wrong-token')).status).toBe(401)
  })
})
