import { createServer, type Server } from 'node:http'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import MiniSearch from 'minisearch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeSiteSearchData, packIndex } from '../../src/build/search/searchDataWriter.js'
import { readSearchData, SEARCH_DATA_PATH } from '../../src/lib/search/index/searchDataFile.js'
import { searchDataInMemory } from '../../bench/searchDataInMemory.js'
import {
  fileTextSource,
  MissingSearchTextError,
  originTextSource,
  SEARCH_TEXT_FOLDER,
  TEXT_HEAD_CHARS,
  TEXT_SHARD_PAGES,
  type SearchTextSource,
} from '../../src/lib/search/index/searchText.js'
import { loadPackedIndex } from '../../src/lib/search/query/packedIndexSearch.js'
import { createSiteSearch } from '../../src/lib/search/query/siteSearch.js'
import type { StoredPage } from '../../src/lib/search/siteContentTypes.js'
import { searchOptions, type IndexedPage } from '../../src/lib/search/terms/indexOptions.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'

// why: words placed around the head's end (TEXT_HEAD_CHARS) and far past it, in both scripts,
// with characters that normalise (① ㈱ ｶﾞ) and a character outside the BMP at the cut
const JAPANESE = ['珈琲豆', 'ドリッパー', '急須', '予約商品', '焙煎', '茶葉', '抽出', '保存容器']
const LATIN = ['tokoname', 'kettle', 'roast', 'Kosami', 'pour-over', 'grinder']
const FILLER = [
  '今日は',
  'とても',
  '静かな',
  '午後です。',
  'the',
  'shop',
  'opens',
  'at',
  '①',
  '㈱',
  'ｶﾞﾗｽ',
  '𠮷野',
]

function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
}

// why: words only at the start of some long pages (their heads decide every answer) and only far
// past the head of others (every answer needs their text shards), Latin and Japanese, the last
// of each long enough to be checked for adjacency
const HEAD_WORDS = ['headword', '冒頭', '冒頭商品']
const TAIL_WORDS = ['tailword', '末尾', '末尾商品群']
const TAIL_AT = 1200

function corpus(): StoredPage[] {
  const next = random(21)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!
  const pages: StoredPage[] = []
  for (let i = 0; i < 240; i++) {
    const placed = i % 8 === 2 ? HEAD_WORDS : i % 8 === 6 ? TAIL_WORDS : null
    const length = 200 + Math.floor(next() * 3000) + (placed ? TAIL_AT + 400 : 0)
    // why: a query word at a position chosen near the head's end on a third of the pages
    const placeAt = i % 3 === 0 ? TEXT_HEAD_CHARS - 150 + Math.floor(next() * 300) : -1
    let text = placed === HEAD_WORDS ? `${HEAD_WORDS.join(' ')} ` : ''
    while (text.length < length) {
      if (placed === TAIL_WORDS && text.length >= TAIL_AT && text.length < TAIL_AT + 12) {
        text += `${TAIL_WORDS.join(' ')} `
      } else if (placeAt >= 0 && text.length >= placeAt && text.length < placeAt + 12) {
        text += `${pick([...JAPANESE, ...LATIN])} `
      } else if (
        i % 4 === 1 &&
        text.length >= TEXT_HEAD_CHARS - 3 &&
        text.length < TEXT_HEAD_CHARS
      ) {
        text += '𠮷'
      } else {
        text += `${next() < 0.12 ? pick([...JAPANESE, ...LATIN]) : pick(FILLER)} `
      }
    }
    pages.push({
      id: `blog/p${i}`,
      slug: `/blog/p${i}`,
      title: i % 5 === 0 ? `${pick(JAPANESE)}の話` : `お知らせ ${i}`,
      description: '',
      tags: [],
      createdAt: '2026-01-02',
      text: text.trim(),
    })
  }
  return pages
}

const QUERIES = [
  ...JAPANESE,
  ...LATIN,
  'toko',
  'kettel',
  '珈琲豆 焙煎',
  'ドリッパー tokoname',
  '①',
  'ガラス',
  '吉野',
]

let root: string
let server: Server
let origin: string
const pages = corpus()
let whole: Uint8Array
let dataId: string

beforeAll(async () => {
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const packed = packIndex(index.toJSON())
  whole = encodeSiteSearchData('text', packed, pages).bytes
  const split = encodeSiteSearchData('text', packed, pages, TEXT_HEAD_CHARS)
  dataId = split.dataId
  root = await mkdtemp(path.join(tmpdir(), 'search-text-'))
  const generated = path.dirname(path.join(root, SEARCH_DATA_PATH))
  await mkdir(path.join(generated, SEARCH_TEXT_FOLDER, dataId), { recursive: true })
  await writeFile(path.join(root, SEARCH_DATA_PATH), split.bytes)
  for (const [n, shard] of split.textShards) {
    await writeFile(
      path.join(generated, SEARCH_TEXT_FOLDER, dataId, `${n}.json`),
      JSON.stringify(shard),
    )
  }
  // why: the site's origin as the deployed function reads it: the shards as static files
  server = createServer((req, res) => {
    const file = path.join(generated, decodeURIComponent(new URL(req.url!, 'http://x').pathname))
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
      () => res.writeHead(404).end(),
    )
  })
  // why: fetch drops an idle connection a second before the server's keep-alive ends (5 s); a
  // search that holds the event loop past that second on a loaded machine met a socket the
  // server had just closed (ECONNRESET). A CDN keeps idle connections far longer
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await rm(root, { recursive: true, force: true })
})

/** A source that counts the shards it is asked for. */
function counted(source: SearchTextSource): SearchTextSource & { reads: number } {
  const counter = {
    reads: 0,
    shard: (id: string, n: number) => {
      counter.reads++
      return source.shard(id, n)
    },
  }
  return counter
}

describe('page text out of the data file', () => {
  it('keeps heads in the file and the rest in shards, whole texts put together again', () => {
    const data = readSearchData(dataId, { from: root, cwd: root })
    const long = pages.filter((page) => page.text.length > TEXT_HEAD_CHARS + 1)
    expect(long.length).toBeGreaterThan(150)
    for (const page of long) {
      const stored = data.page(page.id)!
      expect(page.text.startsWith(stored.text)).toBe(true)
      expect(stored.textShard).toBeTypeOf('number')
      // why: never half a surrogate pair at the cut
      expect(
        stored.text.length === TEXT_HEAD_CHARS || stored.text.length === TEXT_HEAD_CHARS + 1,
      ).toBe(true)
      expect(stored.text.at(-1)!.charCodeAt(0)).not.toBe(0xd842)
    }
    expect(data.textFolder).toBe(path.dirname(path.join(root, SEARCH_DATA_PATH)))
    data.close()
  })

  it('answers bit for bit as with the whole text in the file, from files and from the origin', async () => {
    const inFile = createSiteSearch(() => searchDataInMemory(whole), { formatVersion: 'text' })
    const fromFiles = createSiteSearch(() => readSearchData(dataId, { from: root, cwd: root }), {
      formatVersion: 'text',
    })
    const fromOrigin = createSiteSearch(() => searchDataInMemory(splitBytes()), {
      formatVersion: 'text',
    })
    // why: the plain path, every accelerator off: whole texts read (from the files) before any
    // excerpt
    const plainPath = createSiteSearch(() => readSearchData(dataId, { from: root, cwd: root }), {
      formatVersion: 'text',
      accelerators: { postingBits: false, titleTiers: false, textHeads: false },
    })
    const remote = counted(originTextSource(origin))
    let compared = 0
    for (const query of [...QUERIES, ...HEAD_WORDS, ...TAIL_WORDS]) {
      for (const excerptLength of [50, 200, 500]) {
        const expected = await inFile.search(normalizeQuery(query), excerptLength)
        expect(await fromFiles.search(normalizeQuery(query), excerptLength), query).toEqual(
          expected,
        )
        expect(
          await fromOrigin.search(normalizeQuery(query), excerptLength, undefined, remote),
          query,
        ).toEqual(expected)
        expect(
          await plainPath.search(normalizeQuery(query), excerptLength),
          `${query}, accelerators off`,
        ).toEqual(expected)
        compared += expected.results.filter(
          (result) =>
            pages.find((page) => page.id === result.id)!.text.length > TEXT_HEAD_CHARS + 1,
        ).length
      }
    }
    expect(compared).toBeGreaterThan(1000)
    // why: some answers needed a tail, and shards are read once per instance
    expect(remote.reads).toBeGreaterThan(0)
    expect(remote.reads).toBeLessThanOrEqual(Math.ceil(pages.length / TEXT_SHARD_PAGES))
  })

  it('reads no shard when the heads decide the answer, and the shard of each page they do not', async () => {
    const data = searchDataInMemory(splitBytes())
    /** The text shards of the pages among `results` whose text goes past its head. */
    const shardsOf = (results: readonly { id: string }[]): Set<number> =>
      new Set(results.flatMap(({ id }) => data.page(id)!.textShard ?? []))
    // why: the shards from their files, counted as the search asks for them
    const shards = fileTextSource(path.dirname(path.join(root, SEARCH_DATA_PATH)))
    const answered = async (query: string, textHeads = true) => {
      const remote = counted(shards)
      const search = createSiteSearch(() => searchDataInMemory(splitBytes()), {
        formatVersion: 'text',
        accelerators: { textHeads },
      })
      const { results } = await search.search(normalizeQuery(query), 50, undefined, remote)
      return { results, reads: remote.reads }
    }
    for (const query of HEAD_WORDS) {
      const { results, reads } = await answered(query)
      expect(results.length, query).toBeGreaterThan(5)
      expect(shardsOf(results).size, query).toBe(results.length)
      expect(reads, query).toBe(0)
      // why: without the accelerator the whole texts are read first
      expect((await answered(query, false)).reads, query).toBe(shardsOf(results).size)
    }
    for (const query of TAIL_WORDS) {
      const { results, reads } = await answered(query)
      expect(results.length, query).toBeGreaterThan(5)
      expect(reads, query).toBe(shardsOf(results).size)
    }
    // why: any other answer reads at most the shards of the pages it looked at: its results, and
    // for a long Japanese word the hits checked for adjacency (twice the results)
    const index = loadPackedIndex(data.index, searchOptions)
    for (const query of QUERIES) {
      const { reads } = await answered(query)
      const { hits } = index.search(normalizeQuery(query), 100)
      expect(reads, query).toBeLessThanOrEqual(shardsOf(hits).size)
    }
  })
})

/** How the site's origin behaves for the shards: as deployed, or failing in one way. */
type OriginMode = 'serve' | 'fail' | 'hang' | 'password'

describe('a shard that cannot be read', () => {
  let mode: OriginMode = 'serve'
  const requests: string[] = []
  let flaky: Server
  let flakyOrigin: string
  let closedOrigin: string

  beforeAll(async () => {
    const generated = path.dirname(path.join(root, SEARCH_DATA_PATH))
    flaky = createServer((req, res) => {
      requests.push(req.url!)
      if (mode === 'hang') return
      if (mode === 'fail') return void res.writeHead(500).end('Internal Server Error')
      // why: Netlify's site password answers the function's own fetch with its login page
      if (mode === 'password') {
        return void res.writeHead(401, { 'content-type': 'text/html' }).end('<form>')
      }
      const file = path.join(generated, new URL(req.url!, 'http://x').pathname)
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
        () => res.writeHead(404).end(),
      )
    })
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve))
    flakyOrigin = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise((resolve) => closed.close(resolve))
  })

  afterAll(async () => {
    flaky.closeAllConnections()
    await new Promise((resolve) => flaky.close(resolve))
  })

  const fresh = () =>
    createSiteSearch(() => searchDataInMemory(splitBytes()), { formatVersion: 'text' })
  // why: a Latin word has no adjacency check, so its hits are the same with heads only
  const query = normalizeQuery('kettle')
  const timeoutMs = 100

  /** The answer as the instance gives it with every text whole (the data file without shards). */
  const wholeAnswer = () =>
    createSiteSearch(() => searchDataInMemory(whole), { formatVersion: 'text' }).search(query, 200)

  for (const [name, how] of [
    ['answers 500', 'fail'],
    ['hangs', 'hang'],
    ['asks for the site password', 'password'],
    ['refuses the connection', 'closed'],
  ] as const) {
    it(`answers from the pages' heads when the origin ${name}, and reads the shard again at the next answer`, async () => {
      mode = how === 'closed' ? 'serve' : how
      const origin = how === 'closed' ? closedOrigin : flakyOrigin
      requests.length = 0
      const search = fresh()
      const expected = await wholeAnswer()
      const answer = await search.search(
        query,
        200,
        undefined,
        originTextSource(origin, { timeoutMs }),
      )
      expect(answer.unreadText?.shards).toBeGreaterThan(0)
      expect(answer.unreadText?.error).toBeInstanceOf(MissingSearchTextError)
      expect(answer.results.map((result) => [result.id, result.score])).toEqual(
        expected.results.map((result) => [result.id, result.score]),
      )
      expect(answer.totalResults).toBe(expected.totalResults)
      // why: each excerpt is the one of the whole text or one out of the page's head
      const data = searchDataInMemory(splitBytes())
      let fromHead = 0
      for (const [i, result] of answer.results.entries()) {
        if (result.excerpt === expected.results[i]!.excerpt) continue
        fromHead++
        expect(data.page(result.id)!.text).toContain(result.excerpt.replace(/^…|…$/g, ''))
      }
      expect(fromHead).toBeGreaterThan(0)
      // why: one try per shard in an answer, however many of its pages need it
      if (how !== 'closed') {
        expect(requests.length).toBeGreaterThan(0)
        expect(requests.length).toBeLessThanOrEqual(answer.unreadText!.shards)
        expect(new Set(requests).size).toBe(requests.length)
      }

      // why: the default timeout, so a loaded machine cannot fail the read that must succeed
      mode = 'serve'
      const again = await search.search(query, 200, undefined, originTextSource(flakyOrigin))
      expect(again).toEqual(expected)
    })
  }

  it('answers from the heads without any source, and when a shard lacks a page', async () => {
    const expected = await wholeAnswer()
    const none = await fresh().search(query, 200)
    expect(none.unreadText?.error).toBeInstanceOf(MissingSearchTextError)
    expect(none.results.map((result) => result.id)).toEqual(
      expected.results.map((result) => result.id),
    )
    const empty: SearchTextSource = { shard: async () => ({}) }
    const answer = await fresh().search(query, 200, undefined, empty)
    expect(String(answer.unreadText?.error)).toContain('for blog/p')
    expect(answer.results.map((result) => result.id)).toEqual(
      expected.results.map((result) => result.id),
    )
  })
})

let split: Uint8Array | null = null
function splitBytes(): Uint8Array {
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  return (split ??= encodeSiteSearchData(
    'text',
    packIndex(index.toJSON()),
    pages,
    TEXT_HEAD_CHARS,
  ).bytes)
}
