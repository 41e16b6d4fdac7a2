import { describe, expect, it } from 'vitest'
import {
  splitIntoChunks,
  tokenizeBigrams,
  tokenizeWords,
} from '../../src/lib/search/cjkTokenizer.js'
import { normalizeQuery } from '../../src/lib/search/textNormalization.js'

describe('Japanese tokenizing', () => {
  it('turns Japanese runs into overlapping bigrams and keeps Latin words whole', () => {
    expect(tokenizeBigrams('新幹線でTokyoへ、V60と珈琲豆')).toEqual([
      '新幹',
      '幹線',
      '線で',
      'tokyo',
      'へ',
      'v60',
      'と珈',
      '珈琲',
      '琲豆',
    ])
  })

  it('folds half-width kana, full-width letters and case', () => {
    expect(tokenizeBigrams('ﾄﾞﾘｯﾊﾟｰ ＨＡＲＩＯ')).toEqual(tokenizeBigrams('ドリッパー hario'))
    expect(normalizeQuery('  ＨＡＲＩＯ　 ﾄﾞﾘｯﾊﾟｰ ')).toBe('hario ドリッパー')
  })

  it('segments words with Intl.Segmenter', () => {
    expect(tokenizeWords('予約商品の入荷のお知らせ')).toContain('入荷')
  })

  it('splits long text at sentence ends into pieces no longer than the limit', () => {
    const text = '珈琲豆を焙煎しました。'.repeat(500) + 'あ'.repeat(3000)
    const chunks = splitIntoChunks(text, 2000)
    expect(chunks.join('')).toBe(text)
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(2000)
    expect(chunks[0]!.endsWith('。')).toBe(true)
  })
})
