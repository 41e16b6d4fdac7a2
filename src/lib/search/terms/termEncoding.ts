import { isCjkTerm } from './cjkTokenizer.js'

// why: `~` never occurs in a token (tokens are letters and digits), so it marks encoded terms
const MARKER = '~'

/**
 * How a Japanese term is stored in the index: each UTF-16 unit as 4 hex digits behind `~`
 * (`抹茶` → `~62b98336`); other terms unchanged.
 *
 * why: MiniSearch's radix tree scans a node's children one by one on every insert and lookup.
 * Japanese terms start with thousands of different characters, so the root got thousands of
 * children, which made loading the terms slow. Hex digits keep every node at ≤ 16 children, and
 * the encoding keeps prefixes: `抹` → `~62b9` still finds `抹茶` by prefix.
 */
export function encodeTerm(term: string): string {
  if (!isCjkTerm(term)) return term
  let encoded = MARKER
  for (let i = 0; i < term.length; i++) {
    encoded += term.charCodeAt(i).toString(16).padStart(4, '0')
  }
  return encoded
}

/** True for a term encoded by encodeTerm (a Japanese term as the index holds it). */
export function isEncodedJapaneseTerm(term: string): boolean {
  return term.startsWith(MARKER)
}

/** True for an index term that is not Japanese: a Latin word or number as the page has it. */
export function isLatinIndexTerm(term: string): boolean {
  return !isEncodedJapaneseTerm(term)
}
