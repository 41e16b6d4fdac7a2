/*
 * Romaji typed for a Japanese word, as katakana (docs/search.md, "Readings"): Hepburn (`shi`,
 * `chi`, `tsu`, `fu`, `ji`, `sha`), kunrei (`si`, `ti`, `tu`, `hu`, `zi`, `sya`), the spellings
 * of a PC's kana input (`nn`, `xtu`, `la`), long vowels written out (`uu`, `ou`, `oo`) or with a
 * macron or circumflex (`ō` = `ou`), a doubled consonant and `tch`/`cch` as っ, `n'` before a
 * vowel, `m` before b/m/p as ん.
 */

// why: one table of syllables; the longest spelling that matches at a position wins
const SYLLABLES: Readonly<Record<string, string>> = (() => {
  const table: Record<string, string> = {}
  const rows: [string, string][] = [
    ['', 'アイウエオ'],
    ['k', 'カキクケコ'],
    ['g', 'ガギグゲゴ'],
    ['s', 'サシスセソ'],
    ['z', 'ザジズゼゾ'],
    ['t', 'タチツテト'],
    ['d', 'ダヂヅデド'],
    ['n', 'ナニヌネノ'],
    ['h', 'ハヒフヘホ'],
    ['b', 'バビブベボ'],
    ['p', 'パピプペポ'],
    ['m', 'マミムメモ'],
    ['y', 'ヤイユエヨ'],
    ['r', 'ラリルレロ'],
    ['w', 'ワヰウヱヲ'],
  ]
  for (const [consonant, kana] of rows) {
    for (let v = 0; v < 5; v++) table[consonant + 'aiueo'[v]] = kana[v]!
  }
  table['ye'] = 'イェ'
  table['wi'] = 'ウィ'
  table['we'] = 'ウェ'
  Object.assign(table, {
    shi: 'シ',
    chi: 'チ',
    tsu: 'ツ',
    fu: 'フ',
    ji: 'ジ',
    dzu: 'ヅ',
    di: 'ディ',
    du: 'ドゥ',
    ti: 'チ',
    tu: 'ツ',
    la: 'ァ',
    li: 'ィ',
    lu: 'ゥ',
    le: 'ェ',
    lo: 'ォ',
    xa: 'ァ',
    xi: 'ィ',
    xu: 'ゥ',
    xe: 'ェ',
    xo: 'ォ',
    xtu: 'ッ',
    ltu: 'ッ',
    xtsu: 'ッ',
    xya: 'ャ',
    xyu: 'ュ',
    xyo: 'ョ',
    lya: 'ャ',
    lyu: 'ュ',
    lyo: 'ョ',
    va: 'ヴァ',
    vi: 'ヴィ',
    vu: 'ヴ',
    ve: 'ヴェ',
    vo: 'ヴォ',
    fa: 'ファ',
    fi: 'フィ',
    fe: 'フェ',
    fo: 'フォ',
    she: 'シェ',
    che: 'チェ',
    je: 'ジェ',
    tsa: 'ツァ',
  })
  const small = { a: 'ャ', u: 'ュ', o: 'ョ' } as const
  const yRows: [string, string][] = [
    ['ky', 'キ'],
    ['gy', 'ギ'],
    ['sy', 'シ'],
    ['sh', 'シ'],
    ['zy', 'ジ'],
    ['jy', 'ジ'],
    ['j', 'ジ'],
    ['ty', 'チ'],
    ['ch', 'チ'],
    ['cy', 'チ'],
    ['dy', 'ヂ'],
    ['ny', 'ニ'],
    ['hy', 'ヒ'],
    ['by', 'ビ'],
    ['py', 'ピ'],
    ['my', 'ミ'],
    ['ry', 'リ'],
  ]
  for (const [start, kana] of yRows) {
    for (const [vowel, y] of Object.entries(small)) table[start + vowel] = kana + y
  }
  return table
})()
const LONGEST_SYLLABLE = 4
const VOWELS = 'aiueo'
// why: a macron or circumflex marks a long vowel; ō and ū are written out as ou and uu
const LONG_MARKED: Readonly<Record<string, string>> = {
  ā: 'aa',
  â: 'aa',
  ī: 'ii',
  î: 'ii',
  ū: 'uu',
  û: 'uu',
  ē: 'ee',
  ê: 'ee',
  ō: 'ou',
  ô: 'ou',
}

/**
 * `word` (letters, with `'` after an `n`; any case) as katakana, or null when it is not romaji
 * throughout (a letter left over: `cat`, `kettle`): `kyuusu` → `キュウス`, `matcha` → `マッチャ`,
 * `n'a` → `ンア`, `tōkyō` → `トウキョウ`.
 */
export function romajiToKana(word: string): string | null {
  let text = ''
  for (const char of word.toLowerCase()) text += LONG_MARKED[char] ?? char
  let kana = ''
  let i = 0
  while (i < text.length) {
    const char = text[i]!
    const next = text[i + 1] ?? ''
    if (char === "'") {
      // why: only `n'` separates (ン before a vowel or y), handled with the n below
      return null
    }
    if (char === 'n') {
      if (next === "'") {
        kana += 'ン'
        i += 2
        continue
      }
      const after = text[i + 2] ?? ''
      if (next === 'n' && (after === '' || (!VOWELS.includes(after) && after !== 'y'))) {
        kana += 'ン'
        i += 2
        continue
      }
      if (next === '' || (!VOWELS.includes(next) && next !== 'y')) {
        kana += 'ン'
        i += 1
        continue
      }
    }
    if (char === 'm' && 'bmp'.includes(next) && next !== '') {
      kana += 'ン'
      i += 1
      continue
    }
    // why: a doubled consonant (`kk`, `tt`) and `tch` (Hepburn) or `cch` write っ
    if (
      next !== '' &&
      !VOWELS.includes(char) &&
      char !== 'n' &&
      (char === next || (char === 't' && next === 'c') || (char === 'c' && next === 'c'))
    ) {
      kana += 'ッ'
      i += 1
      continue
    }
    let matched = false
    for (let length = Math.min(LONGEST_SYLLABLE, text.length - i); length > 0; length--) {
      const syllable = SYLLABLES[text.slice(i, i + length)]
      if (syllable !== undefined) {
        kana += syllable
        i += length
        matched = true
        break
      }
    }
    if (!matched) return null
  }
  return kana || null
}

/**
 * The longest start of `word` that is romaji throughout, as katakana (for completions: `tets`
 * → `テ`, `tetsu` → `テツ`); empty when none.
 */
export function romajiPrefixToKana(word: string): string {
  for (let end = word.length; end > 0; end--) {
    const kana = romajiToKana(word.slice(0, end))
    // why: a final `n` is ん only once the next letter is known (`na`, `ni`)
    if (kana !== null) return end < word.length || !word.endsWith('n') ? kana : kana.slice(0, -1)
  }
  return ''
}

// why: the macron and circumflex vowels of LONG_MARKED escaped: one character past ASCII in a
// regular expression makes V8 read the whole search bundle as two-byte text
const ROMAJI_WORD = /^[a-z\u0101\u00e2\u012b\u00ee\u016b\u00fb\u0113\u00ea\u014d\u00f4']+$/iu
const ROMAJI_LETTER = /[a-z\u0101\u00e2\u012b\u00ee\u016b\u00fb\u0113\u00ea\u014d\u00f4]/iu

/** True for a query word that may be romaji: Latin letters (a macron too, any case) and `'`. */
export function mayBeRomaji(word: string): boolean {
  return ROMAJI_WORD.test(word) && ROMAJI_LETTER.test(word)
}
