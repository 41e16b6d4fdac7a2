import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import addSynonyms from '../../netlify/functions/admin-search-synonyms-add.js'
import listSynonyms from '../../netlify/functions/admin-search-synonyms-list.js'
import removeSynonyms from '../../netlify/functions/admin-search-synonyms-remove.js'
import { answerSearch } from '../../src/lib/search/query/searchService.js'
import {
  SYNONYM_CACHE_MS,
  SYNONYM_READ_WAIT_MS,
  StaffSynonymCache,
  type SynonymSource,
} from '../../src/lib/search/synonyms/staffSynonymCache.js'
import type { SearchSynonymRepository } from '../../src/lib/storage/searchSynonymRepository.js'
import { parseSynonymFile } from '../../src/lib/search/synonyms/synonymFile.js'
import { loadConfig } from '../../src/lib/config.js'
import { createLogger } from '../../src/lib/log.js'
import { openServices } from '../../src/lib/services.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'

const TOKEN = 'admin-token-for-synonyms'
useBlobsServer()
beforeAll(() => {
  vi.stubEnv('ADMIN_API_TOKEN', TOKEN)
})
afterAll(() => {
  vi.unstubAllEnvs()
})

async function call(
  handler: (req: Request, context: ReturnType<typeof fakeContext>) => Promise<Response>,
  path: string,
  body: unknown,
  token: string | null = TOKEN,
) {
  return readJson(await handler(jsonRequest(path, body, { token }), fakeContext()))
}

async function search(q: string, now: number): Promise<string[]> {
  const context = fakeContext()
  const services = openServices(context, loadConfig(), createLogger('t'), { now: () => now })
  const answer = await answerSearch(new URLSearchParams({ q }), services)
  await context.settled()
  return answer.results.map((result) => result.id)
}

describe('search synonyms staff add', () => {
  it('are added, listed, used by searches within a minute without a rebuild, and removed', async () => {
    const start = Date.parse('2026-11-23T00:00:00Z')
    // why: nothing on the sample site holds `sencha-pot`; the group makes it find the 急須 pages
    expect(await search('sencha-pot', start)).toEqual([])

    const added = await call(addSynonyms, '/api/admin/search/synonyms', {
      words: ['急須', ' sencha-pot '],
    })
    expect(added.status).toBe(201)
    expect(added.body.group).toMatchObject({ words: ['急須', 'sencha-pot'] })
    expect(added.body.group.id).toMatch(/^syn_[a-f0-9]{16}$/)

    // why: the instance keeps what it read for a minute; then `answerSearch` alone (the search
    // function reads first, staffSynonymsRead) starts a read after its answer, and the searches
    // after it use the new groups
    expect(await search('sencha-pot', start + 1_000)).toEqual([])
    expect(await search('sencha-pot', start + SYNONYM_CACHE_MS + 1)).toEqual([])
    const found = await search('sencha-pot', start + SYNONYM_CACHE_MS + 2)
    expect(found).toContain('products/kyusu-tokoname')

    const listed = await call(listSynonyms, '/api/admin/search/synonyms/list', {})
    expect(listed.status).toBe(200)
    expect(listed.body.groups).toEqual([added.body.group])
    expect(listed.body.builtIn).toContainEqual(['抹茶', 'matcha'])

    const removed = await call(removeSynonyms, '/api/admin/search/synonyms/remove', {
      id: added.body.group.id,
    })
    expect(removed).toMatchObject({ status: 200, body: { success: true } })
    expect(await search('sencha-pot', start + 2 * SYNONYM_CACHE_MS + 3)).toContain(
      'products/kyusu-tokoname',
    )
    expect(await search('sencha-pot', start + 2 * SYNONYM_CACHE_MS + 4)).toEqual([])
    const again = await call(removeSynonyms, '/api/admin/search/synonyms/remove', {
      id: added.body.group.id,
    })
    expect(again).toMatchObject({
      status: 404,
      body: { success: false, error: 'Synonym group not found' },
    })
  })

  it('refuses groups that are one word once folded, bad bodies and a missing token', async () => {
    const same = await call(addSynonyms, '/api/admin/search/synonyms', {
      words: ['チャセン', 'ちゃせん'],
    })
    expect(same.status).toBe(400)
    expect(same.body.error).toMatch(/^words must differ once normalised/)
    for (const words of [['一語'], 'abc', [1, 2], ['a', 'x'.repeat(41)]]) {
      const bad = await call(addSynonyms, '/api/admin/search/synonyms', { words })
      expect(bad.status, JSON.stringify(words)).toBe(400)
    }
    const badId = await call(removeSynonyms, '/api/admin/search/synonyms/remove', { id: 'x' })
    expect(badId).toMatchObject({ status: 400, body: { error: 'id must be a synonym group id' } })
    const unauthorized = await call(listSynonyms, '/api/admin/search/synonyms/list', {}, null)
    expect(unauthorized.status).toBe(401)
  })

  it('keeps every group when several are added at once (compare-and-swap)', async () => {
    const words = Array.from({ length: 4 }, (_, i) => [`語${i}`, `word${i}`])
    const answers = await Promise.all(
      words.map((group) => call(addSynonyms, '/api/admin/search/synonyms', { words: group })),
    )
    // why: five attempts each; four writers at once may still leave one a 409 (nothing written)
    const written = answers.filter((answer) => answer.status === 201).map((a) => a.body.group.id)
    expect(answers.every((answer) => [201, 409].includes(answer.status))).toBe(true)
    const listed = await call(listSynonyms, '/api/admin/search/synonyms/list', {})
    expect(listed.body.groups.map((group: { id: string }) => group.id)).toEqual(
      expect.arrayContaining(written),
    )
    expect(listed.body.groups).toHaveLength(written.length)
  })
})

describe('staff synonyms at query time', () => {
  /** A scope of its own whose store answers `list`. */
  function sourceWith(list: () => Promise<{ groups: { words: string[] }[] }>): SynonymSource {
    return {
      scope: `synonym-wait-${crypto.randomUUID()}`,
      repository: () => ({ list }) as unknown as SearchSynonymRepository,
      defer: () => {},
      onError: () => {},
    }
  }

  it('waits for the read of an instance that has none, then uses what it read', async () => {
    const cache = new StaffSynonymCache()
    const source = sourceWith(async () => ({ groups: [{ words: ['鉄瓶', 'てつびん'] }] }))
    await cache.upToDate(source, 1_000)
    expect(cache.groupsNow(source, 1_001)).toEqual([['鉄瓶', 'てつびん']])
  })

  it('answers without the groups when the store does not answer in time, waiting once per read', async () => {
    const cache = new StaffSynonymCache()
    const source = sourceWith(() => new Promise(() => {}))
    const waits: number[] = []
    const wait = async (ms: number) => void waits.push(ms)
    await cache.upToDate(source, 1_000, SYNONYM_READ_WAIT_MS, wait)
    expect(waits).toEqual([SYNONYM_READ_WAIT_MS])
    expect(cache.groupsNow(source, 1_000 + SYNONYM_READ_WAIT_MS)).toEqual([])
    // why: the read still under way already kept one search waiting its time
    await cache.upToDate(source, 1_000 + SYNONYM_READ_WAIT_MS, SYNONYM_READ_WAIT_MS, wait)
    expect(waits).toEqual([SYNONYM_READ_WAIT_MS])
  })
})

describe('the synonyms file', () => {
  it('reads groups separated by "=", skipping comments and blank lines, naming a bad line', () => {
    expect(parseSynonymFile('# c\n\n抹茶 = matcha\n茶筅=ちゃせん = chasen\n')).toEqual([
      ['抹茶', 'matcha'],
      ['茶筅', 'ちゃせん', 'chasen'],
    ])
    expect(() =>
      parseSynonymFile('抹茶 = matcha\nひとつだけ\n', 'content/search-synonyms'),
    ).toThrow('content/search-synonyms:2: "ひとつだけ" is not a synonym group.')
  })
})
