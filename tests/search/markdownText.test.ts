import { describe, expect, it } from 'vitest'
import { markdownToPlainText } from '../../src/build/search/markdownText.js'

describe('page text from markdown', () => {
  it('keeps footnote lines, which marked reads as link definitions, and drops the markers', () => {
    const text = markdownToPlainText(
      '本文[^1]。\n\n[^1]: 出典は農林水産省の統計。\n[^note]: https://example.com/a "題"\n\n[site]: https://example.com\n',
    )
    expect(text).toBe('本文。\n出典は農林水産省の統計。\nhttps://example.com/a "題"')
  })
})
