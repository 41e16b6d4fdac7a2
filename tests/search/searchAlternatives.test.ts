import { describe, expect, it } from 'vitest'
import {
  alternativesFinder,
  combineAlternatives,
  keyedGroups,
} from '../../src/lib/search/query/searchAlternatives.js'

describe('spelling alternatives', () => {
  const groups = keyedGroups([
    ['申し込み', '申込み', '申込'],
    ['抹茶', 'matcha'],
    ['茶筅', 'ちゃせん', 'chasen'],
  ])

  it("finds a word's group members (longest key first), in any case or width, none for other words", () => {
    const alternativesOf = alternativesFinder(groups)
    expect(alternativesOf('MATCHA')).toEqual(['抹茶'])
    expect(alternativesOf('ｍａｔｃｈａ')).toEqual(['抹茶'])
    expect(alternativesOf('tokoname')).toEqual([])
    expect(alternativesOf('チャセン')).toEqual(['chasen', '茶筅'])
  })

  it('replaces the longest member inside a Japanese word, also when Latin words came first', () => {
    // why: the members inside Japanese words are indexed at the first Japanese word
    // (searchAlternatives.ts); Latin words before it must not change what it finds
    const alternativesOf = alternativesFinder(groups)
    expect(alternativesOf('kettle')).toEqual([])
    // why: the word's folded key with the member's folded key replaced (kana as katakana)
    expect(alternativesOf('申し込み方法')).toEqual(['申込ミ方法', '申込方法'])
    expect(alternativesOf('申込方法')).toEqual(['申シ込ミ方法', '申込ミ方法'])
    expect(alternativesOf('抹茶碗')).toEqual(['matcha碗'])
    expect(alternativesFinder(groups)('申込方法')).toEqual(['申シ込ミ方法', '申込ミ方法'])
  })

  it('combines sources in order without repeats', () => {
    const staff = alternativesFinder(keyedGroups([['抹茶', '宇治抹茶', 'matcha']]))
    const both = combineAlternatives([alternativesFinder(groups), staff])
    expect(both('matcha')).toEqual(['抹茶', '宇治抹茶'])
  })
})
