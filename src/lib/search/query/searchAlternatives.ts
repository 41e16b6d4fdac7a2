import { isCjkTerm, textRuns } from '../terms/cjkTokenizer.js'
import { foldJapaneseRun } from '../terms/kanaFolding.js'
import type { AlternativesOf } from './wordTerms.js'

/** Groups of words that find each other (spelling variants, synonyms); order is kept. */
export type WordGroups = readonly (readonly string[])[]

/** Groups with each word's spelling key: `[key, word]` pairs. */
export type KeyedWordGroups = readonly (readonly (readonly [key: string, word: string])[])[]

/** `groups` with each word's spelling key (done by the build for the built-in groups). */
export function keyedGroups(groups: WordGroups): KeyedWordGroups {
  return groups.map((group) => group.map((word) => [spellingKey(word), word] as const))
}

// why: every spelling of a word widens each of its term slots; a few are enough
const MAX_ALTERNATIVES = 6

/**
 * A word as groups are looked up by: NFKC, lower case, Japanese runs folded (kanaFolding.ts),
 * everything but letters and digits dropped (`GitHub-Actions` = `githubactions`).
 */
export function spellingKey(text: string): string {
  let key = ''
  for (const run of textRuns(text.normalize('NFKC').toLowerCase())) {
    key += isCjkTerm(run) ? foldJapaneseRun(run) : run
  }
  return key
}

interface Member {
  key: string
  text: string
  group: number
}

/**
 * The other spellings of a query word: the members of the groups the word is one of; for a
 * Japanese word also the word with a member it contains replaced by the others (`申込方法` →
 * `申し込み方法`), the longest member first.
 */
export function alternativesFinder(groups: KeyedWordGroups): AlternativesOf {
  const members: Member[] = []
  groups.forEach((group, index) => {
    for (const [key, text] of group) if (key) members.push({ key, text, group: index })
  })
  members.sort((a, b) => b.key.length - a.key.length)
  const byKey = new Map<string, Member[]>()
  for (const member of members) {
    const list = byKey.get(member.key) ?? []
    list.push(member)
    byKey.set(member.key, list)
  }
  // why: a Japanese word's members inside it were found by testing every member's key (its
  // script, then `includes`) at each query word; now by the key's characters, with the order.
  // Built at the first Japanese word: telling ~150 keys' scripts was a Latin cold start's work
  let japanese: Map<string, { member: Member; order: number }[]> | null = null
  const japaneseByFirst = (): Map<string, { member: Member; order: number }[]> => {
    if (japanese) return japanese
    japanese = new Map()
    for (let order = 0; order < members.length; order++) {
      const member = members[order]!
      if (!isCjkTerm(member.key)) continue
      const list = japanese.get(member.key[0]!) ?? []
      list.push({ member, order })
      japanese.set(member.key[0]!, list)
    }
    return japanese
  }
  /** The first member (in `members`' order) whose key is inside `key`. */
  const firstInside = (key: string): Member | undefined => {
    const japanese = japaneseByFirst()
    let first: { member: Member; order: number } | undefined
    for (let i = 0; i < key.length; i++) {
      for (const candidate of japanese.get(key[i]!) ?? []) {
        if ((!first || candidate.order < first.order) && key.startsWith(candidate.member.key, i)) {
          first = candidate
        }
      }
    }
    return first?.member
  }
  const others = (member: Member): Member[] =>
    members.filter((other) => other.group === member.group && other.key !== member.key)
  return (word) => {
    const key = spellingKey(word)
    if (!key) return []
    const found: string[] = []
    const add = (text: string): void => {
      if (found.length < MAX_ALTERNATIVES && !found.includes(text) && spellingKey(text) !== key) {
        found.push(text)
      }
    }
    for (const member of byKey.get(key) ?? []) for (const other of others(member)) add(other.text)
    if (found.length === 0 && isCjkTerm(key)) {
      const inside = firstInside(key)
      if (inside) {
        for (const other of others(inside)) add(key.replace(inside.key, other.key))
      }
    }
    return found
  }
}

/** The alternatives of several sources, in order, without repeats. */
export function combineAlternatives(sources: readonly AlternativesOf[]): AlternativesOf {
  return (word) => {
    const all: string[] = []
    for (const source of sources) {
      for (const text of source(word)) if (!all.includes(text)) all.push(text)
    }
    return all.slice(0, MAX_ALTERNATIVES)
  }
}
