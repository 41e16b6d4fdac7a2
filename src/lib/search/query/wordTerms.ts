import type { SearchOptions } from 'minisearch'
import type { TermData } from '../index/packedIndex.js'
import type { TermTree } from '../index/termTree.js'
import { isEncodedJapaneseTerm } from '../terms/termEncoding.js'
import type { ExpandedTerm } from './hitTerms.js'
import type { ScoredIndex } from './scoredIndex.js'
import type { ScoringList } from './scoringLists.js'
import { titleDistances, type TermExpansion, type TitleDistances } from './titleFirstRanking.js'
import type { TitleDistanceScratch } from './workspace.js'

/*
 * What one query word reaches in the index: its terms (the index's tokenizer), the terms of its
 * alternative spellings, the index terms each reaches by prefix and fuzzily, and their postings as
 * the lists scoring.ts scores, as MiniSearch 7's `executeQuerySpec` and `termResults` make them.
 * New kinds of alternatives (readings, romaji) come in through `AlternativesOf`.
 */

/** An index term a query term reached, as title-first ranking and hit terms read it. */
export interface Expansion extends TermExpansion, ExpandedTerm {}

/** A query word's terms, their postings and how far each page's title is from it. */
export interface WordTerms {
  termLists: ScoringList[][]
  sourceTerms: string[]
  expansions: Expansion[]
  titleDistances: TitleDistances
}

/**
 * Other spellings a query word also matches (variants, synonyms, readings: docs/search.md), as
 * text the index's tokenizer splits into terms.
 */
export type AlternativesOf = (word: string) => readonly string[]

/**
 * How much a term reached only through a reading (readingAlternatives.ts) weighs beside the
 * word's own terms (1) and a fuzzy match (at most 0.45).
 * why: a reading match ranks below the word as written and above a typo's match; its title
 * counts as a title "within one edit" for the tiers (titleFirstRanking.ts), below one holding
 * the word as typed
 */
const READING_WEIGHT = 0.6
/** The distance a reading match counts as for the title tiers (see READING_WEIGHT). */
const READING_DISTANCE = 1

// why: a word with alternatives is an OR of ANDs of terms; it is searched as the AND of ORs it
// distributes to (every term slot takes one term of each alternative), which keeps one word a
// list of term slots for scoring and the title-first tiers. The slots multiply, so they are capped
const MAX_TERM_SLOTS = 64

/** The word's terms and lists, and how far each title is from it (`scratch`: the workspace's). */
export function wordTerms(
  scratch: TitleDistanceScratch,
  word: string,
  scored: ScoredIndex,
  alternativesOf: AlternativesOf,
  readingsOf: AlternativesOf = () => [],
): WordTerms {
  const terms = tokenTerms(word, scored.termOptions)
  // why: a term in several slots (`nasomori` beside each of its parts `naso`, `mori`) walks the
  // term tree once: a fuzzy walk reads the whole tree, the largest part of such a query
  const reached = new Map<string, DerivedTerm[]>()
  // why: the word's own terms first: a fuzzy walk reads the whole term tree at once, where the
  // look-ups of a joined word's parts (alternativeTerms) read it subtree by subtree before it
  for (let i = 0; i < terms.length; i++) reach(terms[i]!, i, terms, scored, reached, false)
  const { alternatives, exact, viaReading } = alternativeTerms(
    word,
    terms,
    scored,
    alternativesOf,
    readingsOf,
  )
  const known: WordMemo = { reached, lists: new Map(), exact, viaReading }
  const slots = termSlots(terms, alternatives)
  const expansions: Expansion[] = []
  const lists: ScoringList[][] = []
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!
    const slotLists: ScoringList[] = []
    for (const term of slot) slotLists.push(...termLists(term, i, terms, scored, expansions, known))
    lists.push(slotLists)
  }
  const sourceTerms: string[] = []
  addUnique(sourceTerms, terms)
  const distances = titleDistances(
    scratch,
    expansions,
    slots.length,
    scored.titleFieldId,
    scored.stats.slots,
  )
  return { termLists: lists, sourceTerms, expansions, titleDistances: distances }
}

/** The index terms of `text`, as the index's tokenizer and term processing make them. */
function tokenTerms(text: string, { tokenize, processTerm }: SearchOptions): string[] {
  const terms: string[] = []
  for (const token of tokenize!(text)) {
    const processed = processTerm!(token)
    for (const term of Array.isArray(processed) ? processed : [processed])
      if (term) terms.push(term)
  }
  return terms
}

/**
 * The terms of each alternative spelling of a word, its Latin parts (`githubactions`) included,
 * the terms among them matched without fuzziness (the parts no other spelling holds) and those
 * only its readings hold (`readingsOf`, weighed as READING_WEIGHT says).
 */
function alternativeTerms(
  word: string,
  terms: readonly string[],
  scored: ScoredIndex,
  alternativesOf: AlternativesOf,
  readingsOf: AlternativesOf,
): { alternatives: string[][]; exact: Set<string>; viaReading: Set<string> } {
  const alternatives: string[][] = []
  const add = (candidate: string[]): void => {
    if (candidate.length === 0 || sameTerms(candidate, terms)) return
    if (alternatives.some((known) => sameTerms(known, candidate))) return
    alternatives.push(candidate)
  }
  for (const alternative of alternativesOf(word)) {
    add([...new Set(tokenTerms(alternative, scored.termOptions))])
  }
  const exact = new Set<string>()
  if (terms.length === 1) {
    const parts = joinedWordParts(terms[0]!, scored.terms)
    // why: a word splits only into words the index holds, so its parts hold no typo for a
    // fuzzy match to mend; their fuzzy neighbours (`toko` → `toyo`, `name` → `nami`) only found
    // pages holding two unrelated words (docs/search.md, "Decision: spelling variants")
    for (const part of parts) {
      if (!alternatives.some((known) => known.includes(part))) exact.add(part)
    }
    add(parts)
  }
  const viaReading = new Set<string>()
  const spelled = alternatives.length
  for (const reading of readingsOf(word)) {
    add([...new Set(tokenTerms(reading, scored.termOptions))])
  }
  for (const alternative of alternatives.slice(spelled)) {
    for (const term of alternative) {
      if (!terms.includes(term) && !alternatives.slice(0, spelled).some((a) => a.includes(term))) {
        viaReading.add(term)
      }
    }
  }
  return { alternatives, exact, viaReading }
}

function sameTerms(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((term) => b.includes(term))
}

const MIN_PART_LENGTH = 3

/**
 * A Latin word the index does not hold, split into words it holds, the longest first part first
 * (`githubactions` → `github`, `actions`; at most three parts); empty when there is no split.
 * why: shoppers join words the pages write apart (`GitHub Actions`); Pagefind falls back the same
 * way to the longest indexed prefix
 */
function joinedWordParts(term: string, index: TermTree<TermData>, depth = 0): string[] {
  if (isEncodedJapaneseTerm(term) || term.length < 2 * MIN_PART_LENGTH) return []
  if (depth === 0 && index.get(term)) return []
  for (let cut = term.length - MIN_PART_LENGTH; cut >= MIN_PART_LENGTH; cut--) {
    const head = term.slice(0, cut)
    if (!index.get(head)) continue
    const tail = term.slice(cut)
    if (index.get(tail)) return [head, tail]
    if (depth === 0) {
      const rest = joinedWordParts(tail, index, 1)
      if (rest.length) return [head, ...rest]
    }
  }
  return []
}

/** The word's term slots: one per term, widened by one term of each alternative (see above). */
function termSlots(terms: readonly string[], alternatives: readonly string[][]): string[][] {
  let slots = terms.map((term) => [term])
  for (const alternative of alternatives) {
    if (slots.length * alternative.length > MAX_TERM_SLOTS) continue
    const widened: string[][] = []
    for (const slot of slots) {
      for (const term of alternative) widened.push(slot.includes(term) ? slot : [...slot, term])
    }
    slots = widened
  }
  return slots
}

/**
 * MiniSearch's `executeQuerySpec` and `termResults` for one query term: the postings it scores,
 * with the weights of its prefix and fuzzy expansions, in MiniSearch's order (scoringLists.ts
 * scores them).
 */
function termLists(
  term: string,
  i: number,
  terms: string[],
  scored: ScoredIndex,
  expansions: Expansion[],
  known: WordMemo,
): ScoringList[] {
  const { termOptions: options, stats, documents } = scored
  if (options.boostDocument) throw new Error('The search does not support boostDocument')
  const fieldBoosts = (options.fields ?? scored.fields).map(
    (field) => [stats.fieldIds[field]!, ownValue(options.boost, field) || 1] as const,
  )
  // why: pushed, not `map`ped (see scoring.ts, rankWords); hit terms iterate it
  const fieldIds: number[] = []
  for (const [fieldId] of fieldBoosts) fieldIds.push(fieldId)
  const { fuzzy: fuzzyWeight, prefix: prefixWeight } = {
    fuzzy: 0.45,
    prefix: 0.375,
    ...options.weights,
  }
  const termBoost = typeof options.boostTerm === 'function' ? options.boostTerm(term, i, terms) : 1
  const reached = reach(term, i, terms, scored, known.reached, known.exact.has(term))
  const viaReading = known.viaReading.has(term)
  const readingWeight = viaReading ? READING_WEIGHT : 1
  const readingDistance = viaReading ? READING_DISTANCE : 0
  // why: a term in several slots (`nasomori` beside each of its parts) scores the same lists in
  // each; they are made once (the lists of its many fuzzy terms)
  const listsKey = `${term} ${termBoost}`
  const made = known.lists.get(listsKey)
  if (made && made.reached === reached) {
    for (const expansion of made.expansions) expansions.push({ ...expansion, termIndex: i })
    return made.lists
  }
  const firstExpansion = expansions.length

  const lists: ScoringList[] = []
  const { documentCount } = stats
  const add = (
    derivedTerm: string,
    termWeight: number,
    data: TermData | undefined,
    distance = 0,
  ): void => {
    if (!data) return
    expansions.push({ data, term: derivedTerm, fieldIds, termIndex: i, distance })
    for (const [fieldId, fieldBoost] of fieldBoosts) {
      const postings = data[fieldId]
      if (!postings) continue
      const matchingFields = postings.ids.length
      const invDocFreq = Math.log(
        1 + (documentCount - matchingFields + 0.5) / (matchingFields + 0.5),
      )
      lists.push({
        postings,
        lengths: documents.fieldLengths[fieldId]!,
        avgFieldLength: stats.averageFieldLength[fieldId]!,
        invDocFreq,
        weight: termWeight * termBoost * fieldBoost * 1,
      })
    }
  }

  add(term, readingWeight, scored.terms.get(term), readingDistance)
  for (const { term: derivedTerm, data, distance } of reached) {
    if (distance === null) {
      const extra = derivedTerm.length - term.length
      add(
        derivedTerm,
        (readingWeight * prefixWeight * derivedTerm.length) / (derivedTerm.length + 0.3 * extra),
        data,
        readingDistance,
      )
    } else {
      const weight = (fuzzyWeight * derivedTerm.length) / (derivedTerm.length + distance)
      add(derivedTerm, readingWeight * weight, data, Math.max(distance, readingDistance))
    }
  }
  known.lists.set(listsKey, { reached, lists, expansions: expansions.slice(firstExpansion) })
  return lists
}

/** What a word's terms reached (`reach`) and the lists made of it, for its other term slots. */
interface WordMemo {
  reached: Map<string, DerivedTerm[]>
  lists: Map<string, { reached: DerivedTerm[]; lists: ScoringList[]; expansions: Expansion[] }>
  /** The word's terms matched without fuzziness (alternativeTerms). */
  exact: ReadonlySet<string>
  /** The terms only its readings hold (alternativeTerms). */
  viaReading: ReadonlySet<string>
}

/**
 * The index terms the i-th of a word's `terms` reaches beside itself (`derivedTerms` with the
 * search options' prefix and fuzzy tolerance for it, none where `exact`), kept in `known` by
 * term and options.
 */
function reach(
  term: string,
  i: number,
  terms: string[],
  { termOptions: options, terms: index }: ScoredIndex,
  known: Map<string, DerivedTerm[]>,
  exact: boolean,
): DerivedTerm[] {
  const fuzzyOption = options.fuzzy
  const fuzzy = exact
    ? false
    : typeof fuzzyOption === 'function'
      ? fuzzyOption(term, i, terms)
      : fuzzyOption || false
  const prefix =
    typeof options.prefix === 'function' ? options.prefix(term, i, terms) : options.prefix === true
  let maxDistance = 0
  if (fuzzy) {
    const tolerance = fuzzy === true ? 0.2 : fuzzy
    maxDistance =
      tolerance < 1 ? Math.min(options.maxFuzzy!, Math.round(term.length * tolerance)) : tolerance
  }
  const key = `${term} ${prefix} ${maxDistance}`
  let derived = known.get(key)
  if (!derived) {
    derived = derivedTerms(term, prefix, maxDistance, index)
    known.set(key, derived)
  }
  return derived
}

/** An index term a query term reaches beside itself: by prefix (distance null) or fuzzily. */
interface DerivedTerm {
  term: string
  data: TermData
  distance: number | null
}

/**
 * The index terms `term` reaches beside itself, in MiniSearch's order: the words it begins (with
 * `prefix`), then those within `maxDistance` edits (0: none) that it does not begin.
 */
function derivedTerms(
  term: string,
  prefix: boolean,
  maxDistance: number,
  index: TermTree<TermData>,
): DerivedTerm[] {
  const prefixMatches = prefix ? index.atPrefix(term) : null
  let fuzzyMatches: Map<string, [TermData, number]> | null = null
  if (maxDistance) {
    fuzzyMatches = index.fuzzyGet(term, maxDistance)
    addTranspositions(term, index, fuzzyMatches)
  }
  const derived: DerivedTerm[] = []
  for (const [derivedTerm, data] of prefixMatches ?? []) {
    if (derivedTerm.length === term.length) continue
    fuzzyMatches?.delete(derivedTerm)
    derived.push({ term: derivedTerm, data, distance: null })
  }
  for (const [derivedTerm, [data, distance]] of fuzzyMatches ?? []) {
    if (distance) derived.push({ term: derivedTerm, data, distance })
  }
  return derived
}

/**
 * Index terms one swap of neighbouring letters away (`kettel` → `kettle`), and the words they
 * begin (`kettles`), at distance 1.
 * why: Levenshtein counts a swap as two edits, beyond the tolerance of most words; Damerau's
 * distance counts it as one (docs/search.md, "Decision: spelling variants")
 */
function addTranspositions(
  term: string,
  index: TermTree<TermData>,
  found: Map<string, [TermData, number]>,
): void {
  for (let i = 0; i + 1 < term.length; i++) {
    if (term[i] === term[i + 1]) continue
    const swapped = term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2)
    const expansions: Iterable<[string, TermData]> =
      swapped.length >= MIN_PREFIX_SWAP ? index.atPrefix(swapped) : []
    const exact = index.get(swapped)
    for (const [derived, data] of exact ? [[swapped, exact] as const, ...expansions] : expansions) {
      const known = found.get(derived)
      if (derived !== term && (!known || known[1] > 1)) found.set(derived, [data, 1])
    }
  }
}

// why: the words a short swapped prefix begins are too many to be what the shopper meant
const MIN_PREFIX_SWAP = 4

function ownValue(object: Record<string, number> | undefined, key: string): number | undefined {
  return object && Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined
}

/** Appends to `target` the terms of `source` it does not hold yet. */
export function addUnique(target: string[], source: readonly string[]): void {
  for (const term of source) if (!target.includes(term)) target.push(term)
}
