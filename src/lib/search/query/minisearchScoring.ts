import type { SearchOptions } from 'minisearch'
import {
  andMatches,
  copyMatches,
  emptyMatches,
  orMatches,
  orderOf,
  qualityFactor,
  releaseMatches,
  scratch,
  topRanked,
  type Matches,
} from './matchSets.js'
import type { TermData } from '../index/packedIndex.js'
import { scoreLists, type Bm25, type ScoringList } from './scoringLists.js'
import { matchedTerms, type ExpandedTerm, type TermFilter } from './hitTerms.js'
import { titleTierTop } from './titleTierTop.js'
import { isEncodedJapaneseTerm } from '../terms/termEncoding.js'
import {
  rerankTitleFirst,
  titleDistances,
  type TermExpansion,
  type TitleDistances,
} from './titleFirstRanking.js'

/**
 * The parts of a loaded MiniSearch 7 index that scoring reads.
 * why: MiniSearch's own search builds three objects per matching posting and again per AND/OR
 * step, most of a query's time when a term occurs in over half of all pages; scoring into
 * arrays does the same arithmetic in the same order without them.
 */
export interface IndexInternals {
  _index: {
    get(term: string): TermData | undefined
    atPrefix(prefix: string): Iterable<[string, TermData]>
    fuzzyGet(term: string, maxDistance: number): Map<string, [TermData, number]>
  }
  _options: { fields: string[]; searchOptions: SearchOptions }
  _fieldIds: Record<string, number>
  _avgFieldLength: number[]
  _documentCount: number
  _nextId: number
}

/** A match as MiniSearch's `search` returns it (stored fields are not used). */
export interface IndexHit {
  id: string
  score: number
  /** Index terms that matched (after prefix/fuzzy expansion). */
  terms: string[]
  /** Query terms that matched. */
  queryTerms: string[]
  /**
   * False when its text is long (hitTerms.ts, LONG_TEXT_TERMS distinct terms or more) and none of
   * the index terms it matched occurs in it (given `textFieldId`): its text then holds none of the
   * query's words. True otherwise.
   */
  inText: boolean
}

export interface IndexAnswer {
  /** The best `limit` hits, sorted by score (ties in MiniSearch's order). */
  hits: IndexHit[]
  /** Every matching document. */
  total: number
}

interface Expansion extends TermExpansion, ExpandedTerm {}

interface WordMatches extends Matches {
  termLists: ScoringList[][]
  sourceTerms: string[]
  expansions: Expansion[]
  /** How far each page's title is from the word (titleFirstRanking.ts). */
  titleDistances: TitleDistances
}

/** The documents' ids and field lengths by short id. */
export interface SharedDocuments {
  /** Page id by short id. */
  documentId(shortId: number): unknown
  /** Per field id, the field's length (unique terms) by short id. */
  fieldLengths: readonly Float64Array[]
}

/** What scoring reads: the options of a query's terms, the index and its documents. */
export interface ScoredIndex {
  termOptions: SearchOptions
  index: IndexInternals
  documents: SharedDocuments
  /** The title's field id: results are re-ranked title-first (titleFirstRanking.ts). */
  titleFieldId?: number
  /** The text's field id: hits tell whether they matched in it (`inText`). */
  textFieldId?: number
}

/**
 * MiniSearch's search of `words` (OR) of terms (AND), scored exactly as MiniSearch 7 does
 * (`executeQuerySpec`, `termResults`, its AND/OR combinators, quality factor and sort), then,
 * given a `titleFieldId`, re-ranked title-first (titleFirstRanking.ts).
 */
export function searchWords(
  words: readonly string[],
  scored: ScoredIndex,
  limit: number,
  listsTerm: TermFilter = () => true,
  alternativesOf: AlternativesOf = () => [],
): IndexAnswer {
  try {
    return rankWords(words, scored, limit, listsTerm, alternativesOf)
  } finally {
    releaseMatches()
  }
}

function rankWords(
  words: readonly string[],
  scored: ScoredIndex,
  limit: number,
  listsTerm: TermFilter,
  alternativesOf: AlternativesOf,
): IndexAnswer {
  const { documents } = scored
  const size = scored.index._nextId
  const bm25 = { ...scored.index._options.searchOptions, ...scored.termOptions }.bm25!
  // why: arrays built by push, not by `map`: V8 assumed the kind of array `map` returns and
  // deoptimized the search every few hundred answers (0.2–8 ms each), the p99's spikes
  const allTerms: WordTerms[] = []
  for (const word of words) allTerms.push(wordTerms(word, scored, alternativesOf))
  if (allTerms.length === 0) return { hits: [], total: 0 }
  const top = scored.titleFieldId !== undefined ? titleTierTop(allTerms, size, limit, bm25) : null
  const wordMatches = top ? top.words : allTerms.map((word) => scoreWord(word, size, bm25))
  const { ranked, total, score: finalScore } = top ?? rankAll(wordMatches, scored, limit)
  const sourceTermsOf = (shortId: number): string[] => {
    const terms: string[] = []
    for (const word of wordMatches) if (word.has[shortId]) addUnique(terms, word.sourceTerms)
    return terms
  }
  const { textFieldId } = scored
  const text =
    textFieldId === undefined
      ? undefined
      : { fieldId: textFieldId, lengths: scored.documents.fieldLengths[textFieldId]! }
  const { terms, inText } = matchedTerms(ranked, wordMatches, size, listsTerm, text)
  const hits = ranked.map((shortId, i): IndexHit => ({
    id: String(documents.documentId(shortId)),
    score: finalScore[shortId]!,
    terms: terms[i]!,
    queryTerms: sourceTermsOf(shortId),
    inText: scored.textFieldId === undefined || inText[i] === 1,
  }))
  return { hits, total }
}

/** Every matching page scored and re-ranked; the best `limit`. */
function rankAll(
  wordMatches: readonly WordMatches[],
  scored: ScoredIndex,
  limit: number,
): { ranked: number[]; total: number; score: Float64Array } {
  // why: the first word's arrays stay as they are; they tell later which words a page matched
  // (one word is never combined, so it needs no copy: a 20,000-page cold start saves ~3 ms)
  const combined =
    wordMatches.length === 1
      ? wordMatches[0]!
      : wordMatches.slice(1).reduce<Matches>(orMatches, copyMatches(wordMatches[0]!))
  const finalScore = scratch('final', combined.score.length)
  const qualityOf = qualityFactor(wordMatches)
  const order = orderOf(combined)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    // why: MiniSearch multiplies by the number of query terms a page matched
    finalScore[shortId] = combined.score[shortId]! * qualityOf(shortId)
  }
  if (scored.titleFieldId !== undefined) {
    const tier = scratch('tier', combined.score.length)
    rerankTitleFirst(wordMatches, order, finalScore, tier)
  }
  const ranked = topRanked(order, finalScore, limit)
  return { ranked, total: combined.count, score: finalScore }
}

/** A query word's terms, their postings and how far each page's title is from it. */
interface WordTerms {
  termLists: ScoringList[][]
  sourceTerms: string[]
  expansions: Expansion[]
  titleDistances: TitleDistances
}

/**
 * Other spellings a query word also matches (variants, synonyms: docs/search.md), as text the
 * index's tokenizer splits into terms.
 */
export type AlternativesOf = (word: string) => readonly string[]

// why: a word with alternatives is an OR of ANDs of terms; it is searched as the AND of ORs it
// distributes to (every term slot takes one term of each alternative), which keeps one word a
// list of term slots for scoring and the title-first tiers. The slots multiply, so they are capped
const MAX_TERM_SLOTS = 64

function wordTerms(word: string, scored: ScoredIndex, alternativesOf: AlternativesOf): WordTerms {
  const terms = tokenTerms(word, scored.termOptions)
  // why: a term in several slots (`nasomori` beside each of its parts `naso`, `mori`) walks the
  // term tree once; its fuzzy walk was a third of such a query at 50,000 pages
  const reached = new Map<string, DerivedTerm[]>()
  // why: the word's own terms first: a fuzzy walk reads the whole term tree at once, where the
  // look-ups of a joined word's parts (alternativeTerms) read it subtree by subtree before it
  for (let i = 0; i < terms.length; i++) reach(terms[i]!, i, terms, scored, reached, false)
  const { alternatives, exact } = alternativeTerms(word, terms, scored, alternativesOf)
  const known: WordMemo = { reached, lists: new Map(), exact }
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
    expansions,
    slots.length,
    scored.titleFieldId,
    scored.index._nextId,
  )
  return { termLists: lists, sourceTerms, expansions, titleDistances: distances }
}

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
 * and the terms among them matched without fuzziness: the parts no other spelling holds.
 */
function alternativeTerms(
  word: string,
  terms: readonly string[],
  scored: ScoredIndex,
  alternativesOf: AlternativesOf,
): { alternatives: string[][]; exact: Set<string> } {
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
    const parts = joinedWordParts(terms[0]!, scored.index._index)
    // why: a word splits only into words the index holds, so its parts hold no typo for a
    // fuzzy match to mend; their fuzzy neighbours (`toko` → `toyo`, `name` → `nami`) only found
    // pages holding two unrelated words (docs/search.md, "Decision: spelling variants")
    for (const part of parts) {
      if (!alternatives.some((known) => known.includes(part))) exact.add(part)
    }
    add(parts)
  }
  return { alternatives, exact }
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
function joinedWordParts(term: string, index: IndexInternals['_index'], depth = 0): string[] {
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

/** Every page matching the word, scored. */
function scoreWord(word: WordTerms, size: number, bm25: Bm25): WordMatches {
  let matches: Matches | null = null
  for (const lists of word.termLists) {
    const termMatches = scoreLists(lists, size, bm25)
    matches = matches ? andMatches(matches, termMatches) : termMatches
  }
  return { ...(matches ?? emptyMatches(0)), ...word }
}

/**
 * MiniSearch's `executeQuerySpec` and `termResults` for one query term: the postings it scores,
 * in MiniSearch's order (scoringLists.ts scores them).
 */
function termLists(
  term: string,
  i: number,
  terms: string[],
  scored: ScoredIndex,
  expansions: Expansion[],
  known: WordMemo,
): ScoringList[] {
  const { termOptions, index, documents } = scored
  const options = { ...index._options.searchOptions, ...termOptions }
  if (options.boostDocument) throw new Error('searchWords does not support boostDocument')
  const fieldBoosts = (options.fields ?? index._options.fields).map(
    (field) => [index._fieldIds[field]!, ownValue(options.boost, field) || 1] as const,
  )
  // why: pushed, not `map`ped (see rankWords); hit terms iterate it
  const fieldIds: number[] = []
  for (const [fieldId] of fieldBoosts) fieldIds.push(fieldId)
  const { fuzzy: fuzzyWeight, prefix: prefixWeight } = {
    fuzzy: 0.45,
    prefix: 0.375,
    ...options.weights,
  }
  const termBoost = typeof options.boostTerm === 'function' ? options.boostTerm(term, i, terms) : 1
  const reached = reach(term, i, terms, scored, known.reached, known.exact.has(term))
  // why: a term in several slots (`nasomori` beside each of its parts) scores the same lists in
  // each; they are made once (its ~100 fuzzy terms' lists, a tenth of such a query)
  const listsKey = `${term} ${termBoost}`
  const made = known.lists.get(listsKey)
  if (made && made.reached === reached) {
    for (const expansion of made.expansions) expansions.push({ ...expansion, termIndex: i })
    return made.lists
  }
  const firstExpansion = expansions.length

  const lists: ScoringList[] = []
  const documentCount = index._documentCount
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
        avgFieldLength: index._avgFieldLength[fieldId]!,
        invDocFreq,
        weight: termWeight * termBoost * fieldBoost * 1,
      })
    }
  }

  add(term, 1, index._index.get(term))
  for (const { term: derivedTerm, data, distance } of reached) {
    if (distance === null) {
      const extra = derivedTerm.length - term.length
      add(
        derivedTerm,
        (prefixWeight * derivedTerm.length) / (derivedTerm.length + 0.3 * extra),
        data,
      )
    } else {
      const weight = (fuzzyWeight * derivedTerm.length) / (derivedTerm.length + distance)
      add(derivedTerm, weight, data, distance)
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
  { termOptions, index }: ScoredIndex,
  known: Map<string, DerivedTerm[]>,
  exact: boolean,
): DerivedTerm[] {
  const options = { ...index._options.searchOptions, ...termOptions }
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
    derived = derivedTerms(term, prefix, maxDistance, index._index)
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
  index: IndexInternals['_index'],
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
 * distance counts it as one (docs/search.md, "Decision: variant folding")
 */
function addTranspositions(
  term: string,
  index: IndexInternals['_index'],
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

function addUnique(target: string[], source: readonly string[]): void {
  for (const term of source) if (!target.includes(term)) target.push(term)
}
