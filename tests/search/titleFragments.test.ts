import MiniSearch from 'minisearch'
import { describe, expect, it } from 'vitest'
import { searchDataOf } from '../../src/build/siteContent.js'
import type { ContentPage } from '../../src/build/search/contentPages.js'
import { createSiteSearch } from '../../src/lib/search/query/siteSearch.js'
import { searchOptions, type IndexedPage } from '../../src/lib/search/terms/indexOptions.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'
import { searchDataInMemory } from '../../bench/searchDataInMemory.js'

// why: a shopper types 2–4 characters they remember of a title; the pages whose title holds
// them come first, above pages whose bodies repeat them (bench-search-titles.ts measures it on
// bench/search-sets/title-fragments.json)
const TITLES = [
  '南部鉄器 鉄瓶 あられ 1.2L',
  '常滑焼 朱泥急須 平形 360ml',
  '鉄瓶の錆を防ぐお手入れ方法',
  '急須の選び方 容量と形の違い',
  '年末年始の営業日と配送のお知らせ',
  '再入荷通知の登録方法',
  'ギフトラッピングの種類と料金',
  '水出しアイスコーヒーの作り方',
  'ワークショップ 器の金継ぎ教室',
  '春の新茶 予約受付開始',
]
// why: every body repeats other titles' words, as a shop's pages do
const BODY = '鉄瓶と急須のお手入れ、営業日と配送、ラッピングと予約、金継ぎと新茶の話です。'

const page = (title: string, i: number): ContentPage => ({
  id: `blog/page-${i}`,
  slug: `/blog/page-${i}`,
  contentType: 'blog',
  fileSlug: `page-${i}`,
  title,
  description: '',
  tags: [],
  createdAt: '2026-11-01',
  text: `${BODY}${BODY}${BODY}`,
})

describe('fragments of titles', () => {
  const pages = [
    ...TITLES.map(page),
    ...Array.from({ length: 30 }, (_, i) => page('店長の日記', 100 + i)),
  ]
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const data = searchDataInMemory(searchDataOf(pages, index, 'fragments').bytes)
  const search = createSiteSearch(() => data, { formatVersion: 'fragments' })
  const titlesOf = async (query: string): Promise<string[]> =>
    (await search.search(normalizeQuery(query), 200)).results.map((result) => result.title)

  it('ranks the page whose title holds a fragment first', async () => {
    const fragments: [string, string][] = [
      ['あられ', '南部鉄器 鉄瓶 あられ 1.2L'],
      ['朱泥', '常滑焼 朱泥急須 平形 360ml'],
      ['泥急', '常滑焼 朱泥急須 平形 360ml'],
      ['錆を防', '鉄瓶の錆を防ぐお手入れ方法'],
      ['選び', '急須の選び方 容量と形の違い'],
      ['年始', '年末年始の営業日と配送のお知らせ'],
      ['入荷通', '再入荷通知の登録方法'],
      ['ラッピ', 'ギフトラッピングの種類と料金'],
      ['イスコ', '水出しアイスコーヒーの作り方'],
      ['金継ぎ教', 'ワークショップ 器の金継ぎ教室'],
      ['受付開', '春の新茶 予約受付開始'],
    ]
    for (const [fragment, title] of fragments) {
      expect([fragment, (await titlesOf(fragment))[0]]).toEqual([fragment, title])
    }
  })

  it('ranks every title holding a fragment above the pages whose bodies repeat it', async () => {
    const holders: [string, string[]][] = [
      ['鉄瓶', ['南部鉄器 鉄瓶 あられ 1.2L', '鉄瓶の錆を防ぐお手入れ方法']],
      ['急須', ['常滑焼 朱泥急須 平形 360ml', '急須の選び方 容量と形の違い']],
      ['金継', ['ワークショップ 器の金継ぎ教室']],
    ]
    for (const [fragment, titles] of holders) {
      const found = await titlesOf(fragment)
      expect(found.length, fragment).toBeGreaterThan(titles.length)
      expect(found.slice(0, titles.length).sort(), fragment).toEqual([...titles].sort())
    }
  })
})
