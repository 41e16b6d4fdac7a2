import { describe, expect, it } from 'vitest'
import { encodeTerm, isEncodedJapaneseTerm } from '../../src/lib/search/terms/termEncoding.js'

describe('index term encoding', () => {
  it('spells Japanese terms in hex behind a marker and leaves other terms alone', () => {
    expect(encodeTerm('抹茶')).toBe('~62b98336')
    expect(encodeTerm('tokoname')).toBe('tokoname')
    expect(isEncodedJapaneseTerm(encodeTerm('ドリ'))).toBe(true)
    expect(isEncodedJapaneseTerm('v60')).toBe(false)
  })

  it('keeps prefixes, so a one-character query still finds longer terms by prefix', () => {
    expect(encodeTerm('抹茶').startsWith(encodeTerm('抹'))).toBe(true)
  })
})
