import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import addSynonyms from '../../netlify/functions/admin-search-synonyms-add.js'
import suggest from '../../netlify/functions/search-suggest.js'
import { spellingGroups } from '../../src/lib/search/query/searchSpellings.js'
import { answerSuggest } from '../../src/lib/search/suggest/suggestions.js'
import { SYNONYM_CACHE_MS } from '../../src/lib/search/synonyms/staffSynonymCache.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { openServices } from '../../src/lib/services.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'

const TOKEN = 'admin-token-for-suggest'
useBlobsServer()
beforeAll(() => {
  vi.stubEnv('ADMIN_API_TOKEN', TOKEN)
})
afterAll(() => {
  vi.unstubAllEnvs()
})

async function suggested(q: string): Promise<string[]> {
  const context = fakeContext()
  const url = `http://shop.test/api/search/suggest?q=${encodeURIComponent(q)}`
  const { status, body } = await readJson(await suggest(new Request(url), context))
  await context.settled()
  expect(status).toBe(200)
  return body.suggestions.map((suggestion: { text: string }) => suggestion.text)
}

describe('GET /api/search/suggest through synonyms', () => {
  it('completes a word of a content/search-synonyms group as its other words', async () => {
    // why: nothing on the sample site starts with `matc`; the file says 抹茶 = matcha
    expect(await suggested('matc')).toEqual([
      '抹茶',
      '京焼 Kiyomizu 抹茶碗 若草',
      '抹茶の点て方 — 茶筅ひとつで始めるおうち茶道',
      '抹茶碗',
    ])
    // why: 茶筅 = ちゃせん = chasen; the kana word and the Latin word both reach 茶筅
    expect(await suggested('chase')).toEqual([
      '高山 茶筅 Takayama 百本立',
      '茶筅',
      '抹茶の点て方 — 茶筅ひとつで始めるおうち茶道',
    ])
    expect(await suggested('チャセ')).toEqual(await suggested('chase'))
    // why: what was typed completes first; synonyms only fill what is left of the 8
    const direct = await suggested('抹')
    expect(direct.slice(0, 4)).toEqual(await suggested('抹茶'))
    expect(await suggested('zzzz')).toEqual([])
  })

  it('completes through groups staff add, once the instance has read them', async () => {
    const added = await readJson(
      await addSynonyms(
        jsonRequest('/api/admin/search/synonyms', { words: ['急須', 'teapot'] }, { token: TOKEN }),
        fakeContext(),
      ),
    )
    expect(added.status).toBe(201)
    const context = fakeContext()
    const services = openServices(context, loadConfig(), createLogger('t'))
    // why: after every read the handler calls above started at the wall clock's time
    const start = Date.parse('2100-01-01T00:00:00Z')
    const teapot = (now: number) =>
      answerSuggest(
        new URLSearchParams({ q: 'teapot' }),
        spellingGroups(services, now),
      ).suggestions.map((suggestion) => suggestion.text)
    // why: the first use starts the read after the answer, as for searches
    expect(teapot(start)).toEqual([])
    await context.settled()
    expect(teapot(start + 1_000)).toEqual([
      '急須',
      '常滑の窯元を訪ねて — 急須ができるまで',
      '急須でおいしい煎茶を淹れる方法',
    ])
    expect(teapot(start + SYNONYM_CACHE_MS - 1)).toContain('急須')
  })
})

describe('GET /api/search/suggest by reading', () => {
  it('completes kana and romaji with titles and tags holding a kanji word read so', async () => {
    const kyu = await suggested('きゅ')
    expect(kyu).toContain('急須')
    expect(kyu).toContain('Tokoname 朱泥急須 360ml 平形')
    expect(await suggested('キュ')).toEqual(kyu)
    expect(await suggested('kyu')).toEqual(kyu)
    const tetsu = await suggested('tetsu')
    expect(tetsu).toContain('鉄瓶')
    expect(tetsu).toContain('南部鉄器 鉄瓶 Arare あられ 1.2L')
    // why: one kana starts too many words to be what the shopper means
    expect(await suggested('ma')).not.toContain('珈琲豆')
  })
})
