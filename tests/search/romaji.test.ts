import { describe, expect, it } from 'vitest'
import { readingKey } from '../../src/lib/search/terms/readingKey.js'
import { mayBeRomaji, romajiPrefixToKana, romajiToKana } from '../../src/lib/search/terms/romaji.js'

describe('romajiToKana', () => {
  it('reads Hepburn and kunrei spellings as the same kana', () => {
    const pairs: [string, string, string][] = [
      ['shi', 'si', 'シ'],
      ['chi', 'ti', 'チ'],
      ['tsu', 'tu', 'ツ'],
      ['fu', 'hu', 'フ'],
      ['ji', 'zi', 'ジ'],
      ['sha', 'sya', 'シャ'],
      ['cha', 'tya', 'チャ'],
      ['ja', 'zya', 'ジャ'],
      ['tetsubin', 'tetubin', 'テツビン'],
      ['chasen', 'tyasen', 'チャセン'],
    ]
    for (const [hepburn, kunrei, kana] of pairs) {
      expect([romajiToKana(hepburn), romajiToKana(kunrei)]).toEqual([kana, kana])
    }
  })

  it('writes っ for a doubled consonant and for tch or cch', () => {
    expect(romajiToKana('matcha')).toBe('マッチャ')
    expect(romajiToKana('maccha')).toBe('マッチャ')
    expect(romajiToKana('kitte')).toBe('キッテ')
    expect(romajiToKana('zasshi')).toBe('ザッシ')
  })

  it('writes ん for n before a consonant, at the end, as nn, and before a vowel only with n’', () => {
    expect(romajiToKana("n'a")).toBe('ンア')
    expect(romajiToKana('na')).toBe('ナ')
    expect(romajiToKana("kon'ya")).toBe('コンヤ')
    expect(romajiToKana('konya')).toBe('コニャ')
    expect(romajiToKana('hon')).toBe('ホン')
    expect(romajiToKana('nn')).toBe('ン')
    expect(romajiToKana('onna')).toBe('オンナ')
    expect(romajiToKana('shimbun')).toBe(romajiToKana('shinbun'))
  })

  it('reads long vowels written out or with a macron or circumflex alike', () => {
    const keys = ['kyuusu', 'kyusu', 'kyūsu', 'kyûsu', 'KYUUSU', 'Kyūsu'].map((word) =>
      readingKey(romajiToKana(word)!),
    )
    expect(new Set(keys)).toEqual(new Set(['キュス']))
    expect(romajiToKana('tōkyō')).toBe('トウキョウ')
    const tokyo = ['tōkyō', 'tôkyô', 'toukyou', 'tookyoo', 'tokyo'].map((word) =>
      readingKey(romajiToKana(word)!),
    )
    expect(new Set(tokyo)).toEqual(new Set([readingKey('トーキョー')]))
    expect(readingKey(romajiToKana('koohii')!)).toBe(readingKey('コーヒー'))
  })

  it('answers null for a word that is not romaji throughout', () => {
    for (const word of ['kettle', 'cat', 'windows', 'v60', "a'", '']) {
      expect(romajiToKana(word)).toBeNull()
    }
  })
})

describe('romajiPrefixToKana', () => {
  it('converts the longest romaji start, holding back a final n', () => {
    expect(romajiPrefixToKana('tetsu')).toBe('テツ')
    expect(romajiPrefixToKana('tetsub')).toBe('テツ')
    expect(romajiPrefixToKana('kyu')).toBe('キュ')
    expect(romajiPrefixToKana('kon')).toBe('コ')
    expect(romajiPrefixToKana('xq')).toBe('')
  })
})

describe('mayBeRomaji', () => {
  it('takes Latin letters (with macrons, any case) and the n’ apostrophe only', () => {
    expect(['kyuusu', 'Kyūsu', "kon'ya", 'KETTLE'].map(mayBeRomaji)).toEqual([
      true,
      true,
      true,
      true,
    ])
    expect(['v60', 'きゅうす', 'power-shell', "'", ''].map(mayBeRomaji)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
