import { describe, expect, it } from 'vitest'
import { makeExcerpt, parseExcerptLength } from '../../src/lib/search/query/excerpt.js'
import { escapeHtml } from '../../src/lib/htmlEscape.js'
import { highlight } from '../../src/lib/search/query/highlight.js'

describe('highlighting', () => {
  it('marks normalized matches in the original text, escaping everything else', () => {
    expect(highlight('ＴＯＫＯＮＡＭＥ <b>急須</b> & 70℃ の急須', ['tokoname', '急須'])).toBe(
      '<mark>ＴＯＫＯＮＡＭＥ</mark> &lt;b&gt;<mark>急須</mark>&lt;/b&gt; &amp; 70℃ の<mark>急須</mark>',
    )
  })

  it('keeps positions right after characters that NFKC expands or joins', () => {
    expect(highlight('90℃…ｶﾞﾗｽのﾎﾟｯﾄ', ['ポット'])).toBe('90℃…ｶﾞﾗｽの<mark>ﾎﾟｯﾄ</mark>')
    expect(highlight('約２㎝の①ドリッパー', ['ドリッパー'])).toBe(
      '約２㎝の①<mark>ドリッパー</mark>',
    )
  })

  it('marks Latin terms as whole words only', () => {
    expect(highlight('Steam tea, TEA time', ['tea'])).toBe(
      'Steam <mark>tea</mark>, <mark>TEA</mark> time',
    )
  })

  it('escapes quotes too', () => {
    expect(escapeHtml(`"'<>&`)).toBe('&quot;&#39;&lt;&gt;&amp;')
  })
})

describe('excerpts', () => {
  const text = `${'前置きの文章です。'.repeat(40)}ここで予約商品の入荷をお知らせします。${'後書き。'.repeat(40)}`

  it('cuts around the first match within the length, with ellipses', () => {
    const { excerpt, highlightedExcerpt } = makeExcerpt(text, ['入荷'], 60)
    expect(excerpt.length).toBeLessThanOrEqual(60)
    expect(excerpt.startsWith('…')).toBe(true)
    expect(excerpt.endsWith('…')).toBe(true)
    expect(excerpt).toContain('入荷')
    expect(highlightedExcerpt).toContain('<mark>入荷</mark>')
  })

  it('starts at the beginning when nothing matches, and keeps short text whole', () => {
    expect(makeExcerpt(text, ['zzz'], 50).excerpt.startsWith('前置き')).toBe(true)
    expect(makeExcerpt('短い本文', ['本文'], 50)).toEqual({
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
