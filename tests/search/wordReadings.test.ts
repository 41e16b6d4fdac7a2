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
  it('reads the title, each tag and the description, and the body only when asked', () => {
    const page = {
      id: 'products/kettle',
      title: '南部鉄器 鉄瓶',
      description: '岩手の職人',
      tags: ['鉄瓶', 'やかん'],
      text: '錆びない手入れ',
    }
    const read = pageReadings(analyse, page, new Map(), false)
    expect(pairs(read.tags[0]!)).toEqual(['鉄瓶:テツビン'])
    expect(read.tags[1]).toEqual([])
    expect(pairs(read.rest)).toContain('職人:ショクニン')
    expect(pairs(read.rest)).not.toContain('手入れ:テイレ')
    expect(pairs(pageReadings(analyse, page, new Map(), true).rest)).toContain('手入れ:テイレ')
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

  it('stores the table as it was given', () => {
    expect(stored).toEqual(table)
    expect(decodeReadings(new TextEncoder().encode('{'))).toBeNull()
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
  })
})
