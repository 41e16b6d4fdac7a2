import { describe, expect, it } from 'vitest'
import { makeExcerpt, parseExcerptLength } from '../../src/lib/search/query/excerpt.js'
import { escapeHtml } from '../../src/lib/htmlEscape.js'
import { findFirstMatch } from '../../src/lib/search/query/firstMatch.js'
import { findMatchRanges, highlight } from '../../src/lib/search/query/highlight.js'
import { createTextCaches } from '../../src/lib/search/query/textCaches.js'
import {
  isPlainText,
  normalizeSearchText,
  notPlainKeys,
} from '../../src/lib/search/textNormalization.js'
import { termMatchLength, TermPatterns } from '../../src/lib/search/query/termPattern.js'
import { mixedSpellingPairs } from '../../src/lib/search/terms/textSpellings.js'

// why: the compiled terms and characters a site search keeps between answers (workspace.ts)
const caches = createTextCaches()
const patterns = new TermPatterns()

describe('highlighting', () => {
  it('marks normalized matches in the original text, escaping everything else', () => {
    expect(
      highlight(caches, 'ＴＯＫＯＮＡＭＥ <b>急須</b> & 70℃ の急須', ['tokoname', '急須']),
    ).toBe(
      '<mark>ＴＯＫＯＮＡＭＥ</mark> &lt;b&gt;<mark>急須</mark>&lt;/b&gt; &amp; 70℃ の<mark>急須</mark>',
    )
  })

  it('keeps positions right after characters that NFKC expands or joins', () => {
    expect(highlight(caches, '90℃…ｶﾞﾗｽのﾎﾟｯﾄ', ['ポット'])).toBe('90℃…ｶﾞﾗｽの<mark>ﾎﾟｯﾄ</mark>')
    // why: ǅ grows by one and か + U+3099 shrinks by one, so the whole length stays the same
    expect(highlight(caches, 'ǅか\u3099の急須', ['急須'])).toBe('ǅか\u3099の<mark>急須</mark>')
    expect(highlight(caches, '約２㎝の①ドリッパー', ['ドリッパー'])).toBe(
      '約２㎝の①<mark>ドリッパー</mark>',
    )
  })

  it('marks Latin terms as whole words only', () => {
    expect(highlight(caches, 'Steam tea, TEA time', ['tea'])).toBe(
      'Steam <mark>tea</mark>, <mark>TEA</mark> time',
    )
  })

  it('escapes quotes too', () => {
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;')
  })
})

/** Deterministic pseudo-random numbers for generated texts. */
function randomStream(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
}

function randomText(random: () => number, pieces: readonly string[], length: number): string {
  let text = ''
  while (text.length < length) text += pieces[Math.floor(random() * pieces.length)]!
  return text
}

const TERMS = ['tea', 'tokoname', '急須', 'ポット', 'お茶', 'v60', 'ドリ']
const PLAIN_PIECES = [
  ' ',
  'Tea',
  'TEA',
  'tea',
  'steam',
  'tokoname',
  'Tokoname',
  '急須',
  'ポット',
  'お茶',
  'の',
  '。',
  '、',
  'V60',
  'v60',
  '「ドリ」',
  'ドリッパー',
  'x',
  '1',
  '々',
  'ー',
  '\n',
]
const OTHER_PIECES = [
  ...PLAIN_PIECES,
  'ＴＥＡ',
  'ｔｅａ',
  'ﾎﾟｯﾄ',
  '㌧',
  '①',
  '\u3000',
  '℃',
  'ｷｭｳｽ',
  'Ｖ６０',
  'é',
  'ǅ',
  '㍿',
  'か\u3099',
]

describe('plain text', () => {
  it('is exactly the text whose characters each normalise on their own to one character', () => {
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const char = String.fromCharCode(code)
      if (!isPlainText(char)) continue
      expect(normalizeSearchText(char).length, code.toString(16)).toBe(1)
      expect(/\p{M}/u.test(char), code.toString(16)).toBe(false)
    }
    for (const plain of [
      'Tokoname の急須、「ドリッパー」々ー',
      'ＴＥＡ！（１）',
      'ｷｭｳｽ',
      '\u3000',
    ]) {
      expect(isPlainText(plain), plain).toBe(true)
    }
    for (const other of ['ﾎﾟｯﾄ', '℃', 'é', 'か\u3099', '😀', '①']) {
      expect(isPlainText(other), other).toBe(false)
    }
  })

  it('finds every spelling of a folded term: kana, width, case, long vowel, iteration marks', () => {
    expect(highlight(caches, 'こーひーとｺｰﾋｰとコーヒ', ['コーヒ'])).toBe(
      '<mark>こーひー</mark>と<mark>ｺｰﾋｰ</mark>と<mark>コーヒ</mark>',
    )
    expect(highlight(caches, '時々、いすゞ、一ヶ月', ['時時', 'イスズ', '一ケ月'])).toBe(
      '<mark>時々</mark>、<mark>いすゞ</mark>、<mark>一ヶ月</mark>',
    )
    expect(highlight(caches, 'ＧｉｔＨｕｂ Actions', ['github'])).toBe(
      '<mark>ＧｉｔＨｕｂ</mark> Actions',
    )
  })

  it("finds an ASCII term's letters in both cases as a case-insensitive pattern does", () => {
    const insensitive = (term: string): RegExp => new RegExp(patterns.of(term)!.source, 'i')
    for (let code = 0x21; code <= 0x7e; code++) {
      const term = String.fromCharCode(code).toLowerCase()
      const pattern = new RegExp(patterns.of(term)!.source)
      expect(patterns.of(term)!.flags, term).toBe('g')
      const ignoringCase = insensitive(term)
      for (let other = 0; other <= 0xffff; other++) {
        const char = String.fromCharCode(other)
        if (pattern.test(char) !== ignoringCase.test(char)) {
          expect.fail(`${term} and U+${other.toString(16)}`)
        }
      }
    }
  })

  it('spells a character by its case flag and whether it repeats the last, whatever came before', () => {
    // why: the letters' spellings are kept between terms (termPattern.ts); each term here
    // reuses a character an earlier one spelled in another setting
    const sources = [
      ['kettle', '[kｋKＫ][eｅEＥ][tｔTＴ][tｔTＴ々〻][lｌLＬ][eｅEＥ]'],
      ['tea', '[tｔTＴ][eｅEＥ][aａAＡ]'],
      ['ée', 'é[eｅ]'],
      ['e', '[eｅEＥ]'],
      ['a--b', '[aａAＡ][\\-－][\\-－々〻][bｂBＢ]'],
      ['ab-', '[aａAＡ][bｂBＢ][\\-－]'],
      ['時時', '時[時々〻]'],
      ['時間時', '時間時'],
      ['ーー', '[ーｰ][ー々〻ｰ]'],
      ['カー', '[カかヵｶ][ーｰ]'],
    ]
    for (const [term, source] of sources) {
      expect(patterns.of(term!)?.source ?? term, term).toBe(source)
    }
  })

  it('tells the length of every match where it does not vary', () => {
    expect(termMatchLength('ドリ', patterns.of('ドリ'))).toBeNull()
    expect(termMatchLength('急須', patterns.of('急須'))).toBeNull()
    const random = randomStream(47)
    for (const term of ['tea', 'v60', 'tokoname', 'c']) {
      expect(termMatchLength(term, patterns.of(term))).toBe(term.length)
      for (let i = 0; i < 50; i++) {
        const text = randomText(random, LIGHT_PIECES, 20 + Math.floor(random() * 300))
        const pattern = new RegExp(patterns.of(term)!.source, 'g')
        for (const found of text.matchAll(pattern)) expect(found[0].length).toBe(term.length)
      }
    }
  })

  it('is searched as it is with the same matches as normalised text', () => {
    const random = randomStream(7)
    for (let i = 0; i < 300; i++) {
      const text = randomText(random, PLAIN_PIECES, 20 + Math.floor(random() * 400))
      expect(isPlainText(text)).toBe(true)
      expect(findMatchRanges(caches, text, TERMS, true), text).toEqual(
        findMatchRanges(caches, text, TERMS, false),
      )
      expect(findFirstMatch(caches, text, TERMS, true), text).toBe(
        findFirstMatch(caches, text, TERMS, false),
      )
    }
  })

  it('ends a Latin word at a character exactly when it is no letter or digit, in the punctuation blocks', () => {
    // why: these blocks are told without the Unicode-property expression; every character of
    // them (letters such as 々 〆 Ａ ｱ included) must be judged as that expression judges it
    const blocks: Array<[number, number]> = [
      [0x2000, 0x206f],
      [0x3000, 0x303f],
      [0xff00, 0xff65],
    ]
    for (const [first, last] of blocks) {
      for (let code = first; code <= last; code++) {
        const char = String.fromCharCode(code)
        const text = `急須 tokoname${char}`
        const found = findFirstMatch(caches, text, ['tokoname'], true)
        const wordChar =
          /[\p{L}\p{N}]/u.test(char) &&
          !/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー々〆ヶ]/u.test(char)
        expect(found, code.toString(16)).toBe(wordChar ? null : 3)
      }
    }
  })

  it('finds the first match of long other text as normalising it whole does', () => {
    const random = randomStream(11)
    for (let i = 0; i < 200; i++) {
      // why: long enough to cross the early windows (300 and 2,000 characters)
      const text = randomText(random, OTHER_PIECES, 100 + Math.floor(random() * 4000))
      const terms = [TERMS[Math.floor(random() * TERMS.length)]!, 'tokoname']
      const whole = findMatchRanges(caches, text, terms, false)[0]?.[0] ?? null
      expect(findFirstMatch(caches, text, terms, false), text.slice(0, 80)).toBe(whole)
    }
  })
})

// why: characters that normalise the same whatever their neighbours (no joining mark, no Σ, no
// Hangul jamo), so a page holding only these besides plain text is normalised character by
// character where it is not plain
const LIGHT_PIECES = [
  ...PLAIN_PIECES,
  'ＴＥＡ',
  'ｔｅａ',
  '㌧',
  '①',
  '\u3000',
  '℃',
  '20℃',
  '㈱',
  'ｷｭｳｽ',
  'Ｖ６０',
  'é',
  'ǅ',
  '㍿',
  '😀',
  '²',
  '<b>',
  '&',
  '"',
]

/**
 * Where `terms` match in `text` found by normalising the whole text with the origin of each
 * normalised position worked out character by character (the first output character of a
 * changed character from its start, the others from its end).
 */
function matchesOfWholeNormalised(text: string, terms: readonly string[]): Array<[number, number]> {
  let normalized = ''
  const origins: number[] = []
  for (let at = 0; at < text.length;) {
    const char = String.fromCodePoint(text.codePointAt(at)!)
    const out = normalizeSearchText(char)
    for (let i = 0; i < out.length; i++) {
      origins.push(out === char ? at + i : i === 0 ? at : at + char.length)
    }
    normalized += out
    at += char.length
  }
  origins.push(text.length)
  expect(normalized, text).toBe(normalizeSearchText(text))
  // why: normalised text normalises to itself, so it is searched as it is
  return findMatchRanges(caches, normalized, terms, false).map(([start, end]) => [
    origins[start]!,
    origins[end]!,
  ])
}

describe('text that is not plain, normalised character by character', () => {
  it('marks what normalising the whole text marks', () => {
    const random = randomStream(23)
    for (let i = 0; i < 400; i++) {
      const text = randomText(random, LIGHT_PIECES, 10 + Math.floor(random() * 300))
      const terms = [TERMS[Math.floor(random() * TERMS.length)]!, 'tokoname', 'c', '1']
      expect(findMatchRanges(caches, text, terms, false), text).toEqual(
        matchesOfWholeNormalised(text, terms),
      )
    }
  })

  it('finds the first match of long text where normalising the whole text finds it', () => {
    const random = randomStream(29)
    for (let i = 0; i < 200; i++) {
      // why: long enough that the first match lies far from the start, with ① ℃ ㈱ before it
      const text = randomText(random, LIGHT_PIECES, 100 + Math.floor(random() * 4000))
      for (const terms of [
        [TERMS[Math.floor(random() * TERMS.length)]!],
        [TERMS[Math.floor(random() * TERMS.length)]!, 'tea'],
      ]) {
        const whole = matchesOfWholeNormalised(text, terms)[0]?.[0] ?? null
        expect(findFirstMatch(caches, text, terms, false), text.slice(0, 80)).toBe(whole)
      }
    }
  })

  it('gives the excerpt the plain-text path gives where the text is plain', () => {
    const random = randomStream(31)
    for (let i = 0; i < 200; i++) {
      const text = randomText(random, PLAIN_PIECES, 50 + Math.floor(random() * 2000))
      const terms = [TERMS[Math.floor(random() * TERMS.length)]!]
      expect(makeExcerpt(caches, text, terms, 120, false)).toEqual(
        makeExcerpt(caches, text, terms, 120, true),
      )
    }
  })
})

describe("a text's characters that are not plain, as the data stores them", () => {
  it('give the first match and excerpt the text gives without them', () => {
    const random = randomStream(37)
    const pieces = [...LIGHT_PIECES, ...OTHER_PIECES, 'ﾞ', 'e\u0301', '々', 'ー', 'c', '1']
    for (let i = 0; i < 400; i++) {
      const text = randomText(random, pieces, 20 + Math.floor(random() * 2000))
      const keys = notPlainKeys(text, 32)
      if (keys === null || keys === '') continue
      for (const terms of [
        [TERMS[Math.floor(random() * TERMS.length)]!],
        [TERMS[Math.floor(random() * TERMS.length)]!, 'tea', 'c'],
      ]) {
        expect(findFirstMatch(caches, text, terms, keys), text.slice(0, 80)).toBe(
          findFirstMatch(caches, text, terms, false),
        )
        expect(makeExcerpt(caches, text, terms, 120, keys)).toEqual(
          makeExcerpt(caches, text, terms, 120, false),
        )
      }
    }
  })

  it('give what normalising the whole text gives where they only change word checks', () => {
    // why: ① ℃ ²… beside Latin terms (their 1, c, 2 are word characters) and Japanese terms
    // holding none of their characters: searched as it is, word checks seeing them normalised
    const random = randomStream(43)
    const pieces = [
      ...PLAIN_PIECES,
      '①',
      '℃',
      '20℃',
      '²',
      '㈱',
      '😀',
      'ǅ',
      '①tea',
      'tea℃',
      'ｔｅａ',
    ]
    for (let i = 0; i < 400; i++) {
      const text = randomText(random, pieces, 20 + Math.floor(random() * 2000))
      const keys = notPlainKeys(text, 32)
      if (keys === null || keys === '') continue
      const terms = [
        ['tea', 'tokoname'],
        ['tea', '急須'],
        ['v60', 'ポット', 'tea'],
      ][i % 3]!
      const whole = matchesOfWholeNormalised(text, terms)
      expect(findMatchRanges(caches, text, terms, keys), text.slice(0, 80)).toEqual(whole)
      expect(findFirstMatch(caches, text, terms, keys), text.slice(0, 80)).toBe(
        whole[0]?.[0] ?? null,
      )
      expect(makeExcerpt(caches, text, terms, 120, keys)).toEqual(
        makeExcerpt(caches, text, terms, 120, false),
      )
    }
  })

  it('lets first matches found term by term serve the excerpt', () => {
    const random = randomStream(41)
    for (let i = 0; i < 200; i++) {
      const text = randomText(random, i % 2 ? PLAIN_PIECES : LIGHT_PIECES, 200 + random() * 2000)
      const plain = isPlainText(text) || (notPlainKeys(text, 32) ?? false)
      const terms = [TERMS[Math.floor(random() * TERMS.length)]!, 'tea']
      const known = new Map<string, number | null>()
      findFirstMatch(caches, text, [terms[0]!], plain, known)
      expect(makeExcerpt(caches, text, terms, 120, plain, true, known)).toEqual(
        makeExcerpt(caches, text, terms, 120, false),
      )
    }
  })

  it('are listed once each, astral ones whole, and not when too many', () => {
    expect(notPlainKeys('急須 ①①℃ 😀 ①', 32)).toBe('①℃😀\ude00')
    expect(notPlainKeys('plain ＴＥＡ！', 32)).toBe('')
    expect(notPlainKeys('①②③', 2)).toBeNull()
  })
})

describe('pairs a text writes in more than one way, as the data lists them', () => {
  // why: spellings of the same folded pairs (katakana, hiragana, half-width, mixed, ー and ｰ,
  // iteration marks) and texts made of a few of them, so that many are single-spelled
  const SPELLING_PIECES = [
    'セット',
    'せっと',
    'ｾｯﾄ',
    'セっト',
    'セットー',
    'ポット',
    'ぽっと',
    'ﾎﾟｯﾄ',
    'サーバー',
    'サｰバ',
    'さーば',
    'ラテ茶葉',
    'ラテー茶葉',
    'らて茶葉',
    'ほうじ茶',
    'ホウジ茶',
    '深蒸し',
    '深蒸シ',
    'スス',
    'スゝメ',
    '時々',
    '時時',
    'ドリッパー',
    'ヶ月',
    'カ月',
    'の',
    'と',
    'ッ',
    '①',
    '。',
    ' ',
    'tea',
  ]
  const SPELLING_TERMS = ['セット', 'ポット', 'サーバ', 'ラテ茶葉', 'ホウジ茶', '深蒸シ', 'スス']
  const MORE_TERMS = ['時時', 'ドリッパ', 'カ月', 'ット', 'テ茶', 'ト', 'tea']

  it('give the first match and excerpt the pattern gives', () => {
    const random = randomStream(53)
    let listed = 0
    for (let i = 0; i < 3000; i++) {
      const pieces = Array.from(
        { length: 2 + Math.floor(random() * 5) },
        () => SPELLING_PIECES[Math.floor(random() * SPELLING_PIECES.length)]!,
      )
      const text = randomText(random, pieces, 20 + Math.floor(random() * 600))
      const spellings = mixedSpellingPairs(text, 32)
      if (spellings === null) continue
      listed++
      const plain = isPlainText(text) || (notPlainKeys(text, 32) ?? false)
      const term = SPELLING_TERMS[i % SPELLING_TERMS.length]!
      for (const terms of [[term], [term, MORE_TERMS[i % MORE_TERMS.length]!]]) {
        const expected = findFirstMatch(caches, text, terms, plain)
        expect(expected).toBe(findFirstMatch(caches, text, terms, false))
        expect(findFirstMatch(caches, text, terms, plain, undefined, spellings), text).toBe(
          expected,
        )
        expect(makeExcerpt(caches, text, terms, 60, plain, true, undefined, spellings)).toEqual(
          makeExcerpt(caches, text, terms, 60, plain),
        )
      }
    }
    expect(listed).toBeGreaterThan(1000)
  })

  it('are each folded pair written two ways, none where a character repeats the last', () => {
    expect(mixedSpellingPairs('セットとせっと', 32)).toBe('セッット')
    expect(mixedSpellingPairs('セットのセット', 32)).toBe('')
    expect(mixedSpellingPairs('サーバとｻｰﾊﾞ', 32)).toBe('サー')
    expect(mixedSpellingPairs('ラテ茶葉とらて茶葉', 32)).toBe('ラテテ茶')
    expect(mixedSpellingPairs('時々', 32)).toBeNull()
    expect(mixedSpellingPairs('いすゞ', 32)).toBeNull()
    expect(mixedSpellingPairs('セットせっと', 1)).toBeNull()
  })

  it('find a term starting before the first match of another term and running past it', () => {
    // why: later terms are searched only up to the first match found so far (and a reach past it)
    const text = `${'前置き。'.repeat(600)}セットー tea`
    for (const spellings of [undefined, mixedSpellingPairs(text, 32)!]) {
      expect(findFirstMatch(caches, text, ['ット', 'セット'], true, undefined, spellings)).toBe(
        2400,
      )
      expect(
        findFirstMatch(caches, text, ['tea', 'ット', 'セット'], true, undefined, spellings),
      ).toBe(2400)
      expect(findMatchRanges(caches, text, ['ット', 'セット'], true, spellings)).toEqual([
        [2400, 2404],
      ])
    }
  })

  it('leave a term whose pattern has a mark it may skip before its end to the pattern', () => {
    // why: らてー茶葉 is a spelling of ラテ茶葉 whose pairs are not the term's
    const text = `${'前置き。'.repeat(600)}らてー茶葉とらて茶葉`
    const spellings = mixedSpellingPairs(text, 32)!
    expect(spellings).toBe('')
    expect(findFirstMatch(caches, text, ['ラテ茶葉'], true, undefined, spellings)).toBe(2400)
  })
})

describe('excerpts', () => {
  const text = `${'前置きの文章です。'.repeat(40)}ここで予約商品の入荷をお知らせします。${'後書き。'.repeat(40)}`

  it('cuts around the first match within the length, with ellipses', () => {
    const { excerpt, highlightedExcerpt } = makeExcerpt(caches, text, ['入荷'], 60)
    expect(excerpt.length).toBeLessThanOrEqual(60)
    expect(excerpt.startsWith('…')).toBe(true)
    expect(excerpt.endsWith('…')).toBe(true)
    expect(excerpt).toContain('入荷')
    expect(highlightedExcerpt).toContain('<mark>入荷</mark>')
  })

  it('starts at the beginning when nothing matches, and keeps short text whole', () => {
    expect(makeExcerpt(caches, text, ['zzz'], 50).excerpt.startsWith('前置き')).toBe(true)
    expect(makeExcerpt(caches, '短い本文', ['本文'], 50)).toEqual({
      excerpt: '短い本文',
      highlightedExcerpt: '短い<mark>本文</mark>',
    })
  })

  it.each([
    [null, 200],
    ['abc', 200],
    ['49', 50],
    ['501', 500],
    ['250', 250],
    ['99.9', 99],
  ])('reads excerpt_length %j as %i', (raw, expected) => {
    expect(parseExcerptLength(raw)).toBe(expected)
  })
})
