import { beforeAll, describe, expect, it } from 'vitest'
import {
  kanjiWordReadings,
  loadReadingAnalyser,
  pageReadings,
  readingCorrections,
  type ReadingAnalyser,
} from '../../src/build/search/wordReadings.js'
import { readingAlternatives } from '../../src/lib/search/query/readingAlternatives.js'
import { decodeReadings, encodeReadings } from '../../src/lib/search/index/readingTable.js'

let analyse: ReadingAnalyser
beforeAll(async () => {
  analyse = await loadReadingAnalyser()
}, 60_000)

const pairs = (found: readonly { word: string; reading: string }[]): string[] =>
  found.map(({ word, reading }) => `${word}:${reading}`)

describe('kanjiWordReadings', () => {
  it('reads each kanji word, and a compound whole and by its parts', () => {
    expect(pairs(kanjiWordReadings(analyse, '南部鉄器の鉄瓶', new Map()))).toEqual([
      '南部:ナンブ',
      '南部鉄器:ナンブテッキ',
      '鉄器:テッキ',
      '鉄瓶:テツビン',
    ])
    // why: words without a kanji are found as written; they need no reading
    expect(kanjiWordReadings(analyse, 'コーヒーとtea', new Map())).toEqual([])
  })

  it('reads a corrected word as the front matter gives it, wherever it stands', () => {
    const corrections = new Map([['常滑焼', 'トコナメヤキ']])
    expect(pairs(kanjiWordReadings(analyse, '常滑焼', new Map()))).toContain(
      '常滑焼:トコナメショウ',
    )
    expect(pairs(kanjiWordReadings(analyse, '朱泥の常滑焼', corrections))).toContain(
      '常滑焼:トコナメヤキ',
    )
    expect(pairs(kanjiWordReadings(analyse, '朱泥の常滑焼', corrections))).not.toContain(
      '常滑焼:トコナメショウ',
    )
  })
})

describe('readingCorrections', () => {
  const page = (id: string, readings: Record<string, string>) => ({
    id,
    title: '',
    description: '',
    tags: [],
    text: '',
    readings,
  })

  it('gathers every page’s corrections as folded katakana', () => {
    expect(readingCorrections([page('a', { 常滑焼: 'とこなめやき' })])).toEqual(
      new Map([['常滑焼', 'トコナメヤキ']]),
    )
  })

  it('refuses one word read two ways, naming both pages', () => {
    expect(() =>
      readingCorrections([
        page('a', { 常滑焼: 'とこなめやき' }),
        page('b', { 常滑焼: 'とこなめ' }),
      ]),
    ).toThrow(/b: reading of 常滑焼 is とこなめ, but a reads it トコナメヤキ/)
  })
})

describe('pageReadings', () => {
  it('reads the title, each tag and the description, and of the body what is asked', () => {
    const page = {
      id: 'products/kettle',
      title: '南部鉄器 鉄瓶',
      description: '岩手の職人',
      tags: ['鉄瓶', 'やかん'],
      text: '錆びない手入れ。湯の味を引き出す工房の鋳物。',
    }
    const read = pageReadings(analyse, page, new Map(), 'none')
    expect(pairs(read.tags[0]!)).toEqual(['鉄瓶:テツビン'])
    expect(read.tags[1]).toEqual([])
    expect(pairs(read.rest)).toContain('職人:ショクニン')
    expect(pairs(read.rest)).not.toContain('手入れ:テイレ')
    // why: the body's words written with okurigana only: they find their other spellings
    const okurigana = pairs(pageReadings(analyse, page, new Map(), 'okurigana').rest)
    expect(okurigana).toEqual(expect.arrayContaining(['手入れ:テイレ', '引き出す:ヒキダス']))
    expect(okurigana).not.toContain('工房:コウボウ')
    expect(okurigana).not.toContain('鋳物:イモノ')
    const all = pairs(pageReadings(analyse, page, new Map(), 'all').rest)
    expect(all).toEqual(expect.arrayContaining(['手入れ:テイレ', '工房:コウボウ']))
  })

  it('reads each piece of the bodies once per build', () => {
    const read = new Map<string, { word: string; reading: string }[]>()
    const page = (id: string, text: string) => ({ id, title: '', description: '', tags: [], text })
    pageReadings(analyse, page('a', '旨みを引き出す。'), new Map(), 'okurigana', read)
    const [piece] = [...read.keys()] as [string]
    expect(piece).toContain('引き出す')
    read.set(piece, [{ word: '引き出す', reading: 'ヨミ' }])
    const again = pageReadings(analyse, page('b', '旨みを引き出す。'), new Map(), 'okurigana', read)
    expect(pairs(again.rest)).toEqual(['引き出す:ヨミ'])
  })
})

describe('readingAlternatives', () => {
  const table = [
    { word: '急須', reading: 'キュウス' },
    { word: '鉄瓶', reading: 'テツビン' },
    { word: '南部', reading: 'ナンブ' },
    { word: '引き出す', reading: 'ヒキダス' },
    { word: '見積もり', reading: 'ミツモリ' },
  ]
  const stored = decodeReadings(encodeReadings(table))!
  const alternativesOf = readingAlternatives(() => stored)

  it('stores the table as it was given, looked up by reading key and by character', () => {
    expect(stored.all()).toHaveLength(table.length)
    expect(stored.all()).toEqual(expect.arrayContaining(table))
    expect(stored.withKey('キュス')).toEqual([{ word: '急須', reading: 'キュウス' }])
    expect(stored.withKey('キュ')).toEqual([])
    expect(stored.holding('引')).toEqual([{ word: '引き出す', reading: 'ヒキダス' }])
    expect(stored.holding('茶')).toEqual([])
    expect(decodeReadings(new TextEncoder().encode('{'))).toBeNull()
    expect(decodeReadings(Buffer.from('急須', 'utf16le'))).toBeNull()
    expect(decodeReadings(encodeReadings([]))!.all()).toEqual([])
  })

  it('finds kanji words by a reading in kana or romaji, long vowels either way', () => {
    expect(alternativesOf('きゅうす')).toEqual(['急須'])
    expect(alternativesOf('キュース')).toEqual(['急須'])
    expect(alternativesOf('kyusu')).toEqual(['キュス', '急須'])
    expect(alternativesOf('なんぶてつびん')).toEqual(['南部 鉄瓶'])
    expect(alternativesOf('す')).toEqual([])
  })

  it('finds the site’s spelling of a word written with other okurigana', () => {
    expect(alternativesOf('引出す')).toEqual(['引き出す'])
    expect(alternativesOf('見積り')).toEqual(['見積もり'])
    expect(alternativesOf('引き出す')).toEqual([])
    // why: the kana after 出 are another word form's okurigana, not a word ending early
    expect(alternativesOf('引出し')).toEqual([])
  })

  it('finds a site word written without okurigana, read by the kanji alone', () => {
    const readAlone = readingAlternatives(() =>
      decodeReadings(encodeReadings([{ word: '立上げ', reading: 'タツアゲ' }]))!,
    )
    expect(readAlone('立ち上げ')).toEqual(['立上げ'])
    expect(readAlone('立上げ')).toEqual([])
  })

  it('finds a site word the dictionary does not know, by its kanji and okurigana', () => {
    const page = {
      id: 'pages/event',
      title: 'イベント出店',
      description: '',
      tags: [],
      text: '当日は専門用語の言換えを工夫して説明します。',
    }
    const body = pageReadings(analyse, page, new Map(), 'okurigana').rest
    // why: the dictionary knows 言い換え, not 言換え: it reads 言 alone (ゲン)
    expect(pairs(body)).toEqual(['言換え:ゲンカエ'])
    const misread = readingAlternatives(() =>
      decodeReadings(
        encodeReadings([
          ...body,
          { word: '踏切り', reading: 'フミキリ' },
          { word: '手作り', reading: 'テヅクリ' },
        ]),
      )!,
    )
    expect(misread('言い換え')).toEqual(['言換え'])
    expect(misread('言換え')).toEqual([])
    // why: only kana ending a verb's stem are okurigana before a kanji; ン, a particle or another
    // last kana make another word or a phrase
    expect(misread('踏ん切り')).toEqual([])
    expect(misread('手の作り')).toEqual([])
    expect(misread('言い換わり')).toEqual([])
  })
})
