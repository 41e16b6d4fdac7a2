/**
 * The benchmark's generated site (deterministic: the same pages and queries on every run), shaped
 * like a Japanese shop's content: product pages, news, FAQ, guides and blog posts.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'

/** A seeded random stream (mulberry32) and helpers drawing from it. */
export function seededRandom(start: number): {
  random: () => number
  pick: <T>(items: readonly T[]) => T
  between: (min: number, max: number) => number
} {
  let seed = start
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    random,
    pick: (items) => items[Math.floor(random() * items.length)]!,
    between: (min, max) => min + Math.floor(random() * (max - min + 1)),
  }
}

export const JA_NOUNS = (
  '珈琲豆 焙煎 急須 煎茶 抹茶 茶碗 茶筅 鉄瓶 南部鉄器 常滑焼 美濃焼 波佐見焼 有田焼 新幹線 東京駅 ' +
  '京都 大阪 静岡 岩手 予約 入荷 再入荷 発送 送料 在庫 福袋 和菓子 羊羹 手ぬぐい 湯呑み 土瓶 茶葉 ' +
  '深蒸し 浅煎り 深煎り 酸味 苦味 香り 甘み 温度 季節 職人 窯元 工房 釉薬 陶器 磁器 食器 贈り物 ' +
  '限定 新商品 お知らせ 営業日 定休日 配送 梱包 品切れ 通知 登録 支払い 返品 交換 保存 冷凍庫 ' +
  '挽き目 水出し 蒸らし 注ぎ口 取っ手 容量 重さ 大きさ 産地 農園 精製 品種 一番茶 二番茶 番茶 ' +
  'ほうじ茶 玄米茶 紅茶 緑茶 朝食 週末 旅行 出張 お土産 店舗 催事 展示会 お客様 スタッフ 店長'
).split(' ')
export const KATAKANA = (
  'ドリッパー サーバー ケトル マグカップ ミル フィルター ボトル ポット カップ ソーサー ' +
  'ブレンド シングルオリジン エスプレッソ カフェオレ ラテ ギフト ラッピング セット キャンペーン ' +
  'ポップアップストア オンラインショップ メール フォーム アンケート レシピ ワークショップ イベント'
).split(' ')
const JA_VERBS = (
  'しました ご用意しました 入荷しました お届けします おすすめします 販売します 再開しました ' +
  'ご紹介します 淹れてみました 選びました 作りました 始めました 仕上げました 試しました'
).split(' ')
const JA_FRAMES = [
  (a: string, b: string, v: string) => `${a}の${b}を${v}。`,
  (a: string, b: string, v: string) => `今週は${a}と${b}について${v}。`,
  (a: string, b: string, v: string) => `${a}に合う${b}を${v}。`,
  (a: string, b: string, v: string) => `当店では${a}を使った${b}を${v}。`,
  (a: string, b: string) => `${a}は${b}によって味わいが大きく変わります。`,
  (a: string, b: string) => `詳しくは「${a}と${b}」のページをご覧ください。`,
]
const EN_WORDS = (
  'coffee tea kettle teapot dripper roast beans grinder ceramic handmade workshop shipping order ' +
  'pre-order restock stock gift wrapping brew water temperature aroma sweet bitter acidity origin ' +
  'farm harvest season limited edition cast iron porcelain glaze kiln craftsman delivery tracking ' +
  'customer newsletter latte milk espresso filter paper cup mug plate bowl matcha sencha hojicha'
).split(' ')
const SYLLABLES =
  'ka ki ku ke ko sa shi su se so ta chi tsu te to na ni nu ne no ha hi fu he ho ma mi mu me mo ya yu yo ra ri ru re ro wa'.split(
    ' ',
  )
/**
 * The generated site of `seed`: one random stream for the pages and then the queries, so a
 * corpus of 20,000 pages starts with the 2,000 pages of the smaller one.
 */
export function generatedSite(seed = 20261122): {
  writeCorpus: (
    dir: string,
    pageCount: number,
    onProgress?: (done: number) => void,
  ) => Promise<void>
  benchQueries: (count: number) => string[]
} {
  const { random, pick, between } = seededRandom(seed)
  const latinName = (): string => {
    const name = Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join('')
    return name[0]!.toUpperCase() + name.slice(1)
  }

  function japaneseText(chars: number): string {
    let text = ''
    while (text.length < chars) {
      const noun = random() < 0.25 ? pick(KATAKANA) : pick(JA_NOUNS)
      const other = random() < 0.3 ? pick(JA_NOUNS) + pick(JA_NOUNS) : pick(JA_NOUNS)
      text += pick(JA_FRAMES)(random() < 0.15 ? latinName() : noun, other, pick(JA_VERBS))
      if (random() < 0.12) text += '\n\n'
    }
    return text
  }

  function englishText(chars: number): string {
    let text = ''
    while (text.length < chars) {
      const words = Array.from({ length: between(8, 18) }, () =>
        random() < 0.08 ? latinName() : pick(EN_WORDS),
      )
      text += `${words.join(' ')}.${random() < 0.15 ? '\n\n' : ' '}`
    }
    return text[0]!.toUpperCase() + text.slice(1)
  }

  /**
   * Writes `pageCount` markdown pages under `dir` (products, news, FAQ 300–1,500 characters; guides
   * and blog 1,000–5,000; 2 % long articles of 10–30 K; 20 % English). `onProgress` sees pages done.
   */
  async function writeCorpus(
    dir: string,
    pageCount: number,
    onProgress: (done: number) => void = () => {},
  ): Promise<void> {
    const types = ['products', 'news', 'guides', 'faq', 'blog']
    for (let i = 0; i < pageCount; i++) {
      if (i % 500 === 0) onProgress(i)
      const type = types[i % types.length]!
      const english = random() < 0.2
      // why: product, news and FAQ pages are short, guides and blog posts longer, a few very long
      const long = type === 'guides' || type === 'blog'
      const length =
        random() < 0.02 ? between(10000, 30000) : long ? between(1000, 5000) : between(300, 1500)
      const title = english
        ? `${latinName()} ${pick(EN_WORDS)} ${pick(EN_WORDS)}`
        : `${latinName()} ${pick(JA_NOUNS)}${pick(KATAKANA)} ${between(1, 9) * 100}ml`
      const body = english ? englishText(length) : japaneseText(length)
      const tags = english ? [pick(EN_WORDS), pick(EN_WORDS)] : [pick(JA_NOUNS), pick(KATAKANA)]
      const description = english ? englishText(120) : japaneseText(80)
      const source = `---\ntitle: ${JSON.stringify(title)}\ndescription: ${JSON.stringify(description)}\ntags: ${JSON.stringify(tags)}\ncreatedAt: 2026-0${between(1, 9)}-1${between(0, 9)}\n---\n\n## ${pick(JA_NOUNS)}\n\n${body}\n`
      await mkdir(path.join(dir, type), { recursive: true })
      await writeFile(path.join(dir, type, `page-${i}.md`), source)
    }
    onProgress(pageCount)
  }

  /** `count` fixed queries: words, compound pieces, katakana, English, prefixes, typos, pairs. */
  function benchQueries(count: number): string[] {
    const queries: string[] = []
    while (queries.length < count) {
      const kind = queries.length % 8
      const noun = pick(JA_NOUNS)
      if (kind === 0) queries.push(noun)
      else if (kind === 1)
        queries.push(noun.slice(1) || noun) // piece of a compound
      else if (kind === 2) queries.push(pick(KATAKANA))
      else if (kind === 3) queries.push(pick(EN_WORDS))
      else if (kind === 4)
        queries.push(pick(EN_WORDS).slice(0, 4)) // prefix
      else if (kind === 5)
        queries.push(pick(EN_WORDS).replace(/[aeiou]/, 'x')) // typo
      else if (kind === 6) queries.push(`${latinName()} ${pick(JA_NOUNS)}`)
      else queries.push(`${noun} ${pick(KATAKANA)}`)
    }
    return queries
  }
  return { writeCorpus, benchQueries }
}
