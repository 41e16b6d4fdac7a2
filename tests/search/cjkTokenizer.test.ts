import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tokenizeWords } from '../../bench/comparisonTokenizers.js'
import { isCjkTerm, textRuns, tokenizeBigrams } from '../../src/lib/search/terms/cjkTokenizer.js'
import { loadContentPages } from '../../src/build/search/contentPages.js'
import { normalizeQuery, normalizeSearchText } from '../../src/lib/search/textNormalization.js'

// why: the definition of a run; textRuns classifies character by character to avoid compiling
// this on a cold start, and must split exactly like it
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆ヶ'
const RUN = new RegExp(`[${CJK}]+|[[\\p{L}\\p{N}]--[${CJK}]]+`, 'gv')
const referenceRuns = (text: string): string[] => text.match(RUN) ?? []

/** Characters from the blocks where the classes differ, including astral and lone surrogates. */
function mixedText(seed: number, length: number): string {
  const ranges: Array<[number, number]> = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x300, 0x36f],
    [0x400, 0x4ff],
    [0x660, 0x669],
    [0x2e80, 0x2fdf],
    [0x3000, 0x30ff],
    [0x3190, 0x31ff],
    [0x3300, 0x33ff],
    [0x3400, 0x4dbf],
    [0x4e00, 0x9fff],
    [0xd800, 0xdfff],
    [0xf900, 0xfaff],
    [0xff00, 0xffef],
    [0x1b000, 0x1b16f],
    [0x1f300, 0x1f64f],
    [0x20000, 0x2a6df],
    [0x2f800, 0x2fa1f],
  ]
  let state = seed
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return state / 2 ** 32
  }
  let text = ''
  for (let i = 0; i < length; i++) {
    const [from, to] = ranges[Math.floor(next() * ranges.length)]!
    text += String.fromCodePoint(from + Math.floor(next() * (to - from + 1)))
  }
  return text
}

describe('Japanese tokenizing', () => {
  it('turns Japanese runs into overlapping bigrams and keeps Latin words whole', () => {
    expect(tokenizeBigrams('新幹線でTokyoへ、V60と珈琲豆')).toEqual([
      '新幹',
      '幹線',
      '線デ',
      'tokyo',
      'ヘ',
      'v60',
      'ト珈',
      '珈琲',
      '琲豆',
    ])
  })

  it('folds kana, long vowels, iteration marks and ヵヶ the same for pages and queries', () => {
    const same = (a: string, b: string): void =>
      expect(tokenizeBigrams(a), `${a} = ${b}`).toEqual(tokenizeBigrams(b))
    same('こーひー', 'コーヒー')
    same('ｺｰﾋｰ', 'コーヒ')
    same('サーバー', 'サーバ')
    same('ブラウザー', 'ブラウザ')
    same('コーヒーを', 'コーヒを')
    same('時々', '時時')
    same('いすゞ', 'イスズ')
    same('一ヶ月', '一ケ月')
    same('ちゃせん', 'チャセン')
    // why: a long-vowel mark inside a word is part of it (ビール is not ビル)
    expect(tokenizeBigrams('ビール')).not.toEqual(tokenizeBigrams('ビル'))
  })

  it('gives the parts of a Latin word whose case changes inside, beside the word', () => {
    expect(tokenizeBigrams('GitHub Actions selectObject XMLHttp v60')).toEqual([
      'github',
      'git',
      'hub',
      'actions',
      'selectobject',
      'select',
      'object',
      'xmlhttp',
      'xml',
      'http',
      'v60',
    ])
  })

  it('splits runs exactly as the run expression does', async () => {
    const pages = await loadContentPages(path.resolve(import.meta.dirname, '../../content'))
    const texts = pages.map((page) => normalizeSearchText(`${page.title} ${page.text}`))
    for (let seed = 1; seed <= 200; seed++) texts.push(mixedText(seed, 400))
    texts.push('', ' ', 'a', '𠮷野家', '゛゜ー々〆ヶ・', 'café٣ж v60と珈琲、ok', '\ud800x\udc00')
    for (const text of texts) expect(textRuns(text)).toEqual(referenceRuns(text))
  })

  it('tells a Japanese term by its first UTF-16 unit as the script classes do', () => {
    const japanese = new RegExp(`[${CJK}]`, 'u')
    for (let code = 0; code <= 0xffff; code++) {
      const term = `${String.fromCharCode(code)}x`
      if (isCjkTerm(term) !== japanese.test(term.charAt(0))) expect.fail(`U+${code.toString(16)}`)
    }
    expect(isCjkTerm('')).toBe(false)
    expect(isCjkTerm('急須')).toBe(true)
  })

  it('folds half-width kana, full-width letters and case', () => {
    expect(tokenizeBigrams('ﾄﾞﾘｯﾊﾟｰ ＨＡＲＩＯ')).toEqual(tokenizeBigrams('ドリッパー hario'))
    expect(normalizeQuery('  ＨＡＲＩＯ　 ﾄﾞﾘｯﾊﾟｰ ')).toBe('hario ドリッパー')
  })

  it('segments words with Intl.Segmenter', () => {
    expect(tokenizeWords('予約商品の入荷のお知らせ')).toContain('入荷')
  })

  it('segments long text in pieces cut at sentence ends, so no word is cut', () => {
    const sentence = '珈琲豆を焙煎しました。'
    const words = tokenizeWords(sentence)
    // why: 5,500 characters, more than two of the 2,000-character pieces
    expect(tokenizeWords(sentence.repeat(500))).toEqual(
      Array.from({ length: 500 }, () => words).flat(),
    )
  })
})
