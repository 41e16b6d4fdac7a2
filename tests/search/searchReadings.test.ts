import { describe, expect, it } from 'vitest'
import search from '../../netlify/functions/search.js'
import { useBlobsServer } from '../helpers/blobsServer.js'
import { fakeContext } from '../helpers/context.js'
import { readJson } from '../helpers/requests.js'

useBlobsServer()

interface Result {
  id: string
  highlighted_title: string
  highlighted_excerpt: string
}

/** GET /api/search?q= as a shopper sends it, through the search function. */
async function searched(q: string): Promise<{ results: Result[]; totalResults: number }> {
  const context = fakeContext()
  const url = `http://shop.test/api/search?q=${encodeURIComponent(q)}`
  const { status, body } = await readJson(await search(new Request(url), context))
  await context.settled()
  expect(status).toBe(200)
  return body as { results: Result[]; totalResults: number }
}

const ids = async (q: string): Promise<string[]> =>
  (await searched(q)).results.map((result) => result.id)

describe('GET /api/search by reading', () => {
  it('finds a kanji product by its reading in hiragana, katakana and romaji, first', async () => {
    const firsts: [string, string][] = [
      ['きゅうす', 'products/kyusu-tokoname'],
      ['キュウス', 'products/kyusu-tokoname'],
      ['kyuusu', 'products/kyusu-tokoname'],
      ['kyusu', 'products/kyusu-tokoname'],
      ['kyūsu', 'products/kyusu-tokoname'],
      ['てつびん', 'products/nambu-tekki-kettle'],
      ['tetsubin', 'products/nambu-tekki-kettle'],
      ['tetubin', 'products/nambu-tekki-kettle'],
      ['ちゃせん', 'products/chasen-takayama'],
      ['chasen', 'products/chasen-takayama'],
      ['matcha', 'products/kiyomizu-matcha-chawan'],
      // why: a compound is read whole as well as by its parts
      ['なんぶてっき', 'products/nambu-tekki-kettle'],
      ['なんぶ てつびん', 'products/nambu-tekki-kettle'],
    ]
    for (const [q, id] of firsts) expect([q, (await ids(q))[0]]).toEqual([q, id])
  })

  it('reads a name as the product’s front matter gives it (`reading:`)', async () => {
    // why: the dictionary reads 朱泥 シュドロ and 波佐見焼 ハサミショウ
    expect(await ids('しゅでい')).toContain('products/kyusu-tokoname')
    expect((await ids('はさみやき'))[0]).toBe('products/hasami-rim-plate')
    expect(await ids('とこなめやき')).toContain('products/kyusu-tokoname')
    expect(await ids('しゅどろ')).not.toContain('products/kyusu-tokoname')
  })

  it('marks the kanji word a reading found', async () => {
    const { results } = await searched('きゅうす')
    expect(results[0]!.highlighted_title).toBe('Tokoname 朱泥<mark>急須</mark> 360ml 平形')
    const [kettle] = (await searched('tetsubin')).results
    expect(kettle!.highlighted_title).toContain('<mark>鉄瓶</mark>')
  })

  it('ranks a match of the kanji as written above one through its reading', async () => {
    const written = (await searched('急須')).results
    const read = (await searched('きゅうす')).results
    expect(read.map((result) => result.id).slice(0, 3)).toEqual(
      written.map((result) => result.id).slice(0, 3),
    )
    const scoreOf = async (q: string) =>
      (
        await readJson(
          await search(new Request(`http://shop.test/api/search?q=${q}`), fakeContext()),
        )
      ).body.results[0].score as number
    expect(await scoreOf(encodeURIComponent('急須'))).toBeGreaterThan(
      await scoreOf(encodeURIComponent('きゅうす')),
    )
  })

  it('keeps English words working, an English match above a romaji reading', async () => {
    // why: `preorder` is no romaji; `tokoname` is both the product's Latin name and 常滑's reading
    expect((await ids('preorder'))[0]).toBe('guides/how-to-preorder')
    const tokoname = await searched('tokoname')
    expect(tokoname.results[0]!.id).toBe('products/kyusu-tokoname')
    expect(tokoname.results[0]!.highlighted_title).toContain('<mark>Tokoname</mark>')
    expect(tokoname.results.map((result) => result.id)).toContain('blog/tokoname-kamamoto')
  })
})

describe('GET /api/search with punctuation between words', () => {
  it('ignores a word with no index terms instead of answering nothing', async () => {
    const pairs: [string, string][] = [
      ['南部鉄器 ・ 鉄瓶', '南部鉄器 鉄瓶'],
      ['Kalita - Wave', 'Kalita Wave'],
      ['ドリッパー -', 'ドリッパー'],
      ['煎茶 ： 急須', '煎茶 急須'],
      ['抹茶 + 茶筅', '抹茶 茶筅'],
      ['「 急須', '急須'],
      ['鉄瓶 ！', '鉄瓶'],
    ]
    for (const [punctuated, plain] of pairs) {
      const answer = await searched(punctuated)
      expect([punctuated, answer.results.map((result) => result.id)]).toEqual([
        punctuated,
        await ids(plain),
      ])
      expect(answer.results.length).toBeGreaterThan(0)
      expect(answer.totalResults).toBe(answer.results.length)
    }
    expect((await ids('南部鉄器 ・ 鉄瓶'))[0]).toBe('products/nambu-tekki-kettle')
    expect(await searched('- ・ ！')).toMatchObject({ results: [], totalResults: 0 })
  })
})
