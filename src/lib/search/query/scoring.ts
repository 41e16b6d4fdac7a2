import {
  andMatches,
  copyMatches,
  orMatches,
  orderOf,
  qualityFactor,
  topRanked,
  type MatchPool,
  type Matches,
} from './matchSets.js'
import { scoreLists, type Bm25 } from './scoringLists.js'
import { matchedTerms, type TermFilter } from './hitTerms.js'
import type { ScoredIndex } from './scoredIndex.js'
import { titleTierTop } from './titleTierTop.js'
import { rerankTitleFirst } from './titleFirstRanking.js'
import type { SearchWorkspace } from './workspace.js'
import { addUnique, wordTerms, type AlternativesOf, type WordTerms } from './wordTerms.js'

/*
 * The search of a query's words over a loaded index: each word's pages scored with BM25+, the
 * words' scores added, the best re-ranked title-first (titleFirstRanking.ts).
 *
 * It reproduces MiniSearch 7's search: its BM25+ with the same parameters, boosts, prefix and
 * fuzzy weights, AND within a word and OR across words, its quality factor and the order of its
 * stable sort, with the same doubles computed in the same order. It only does without
 * MiniSearch's objects (three per matching posting and again per AND/OR step, most of a query's
 * time for a frequent word): scores go into typed arrays by short id (matchSets.ts). The oracle
 * tests (tests/search/packedIndex.test.ts) compare its answers with MiniSearch's own search
 * followed by the re-ranking, bit for bit, with the accelerators (workspace.ts) on and off. What
 * MiniSearch does not do, a word's alternatives and transpositions, is wordTerms.ts's.
 *
 * The plain path is `rankAll`: every matching page scored, then ranked. The title-tier shortcut
 * (titleTierTop.ts) gives the same top when on; the lists' bits (postingBits.ts) speed both.
 */

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

/** A word's terms with every page matching it, scored. */
interface WordMatches extends Matches, WordTerms {}

/**
 * The search of `words` (OR) of terms (AND), scored as MiniSearch 7 scores them, then, given a
 * `titleFieldId`, re-ranked title-first; the best `limit`. `listsTerm`: which matched index terms
 * the hits list (default all); `alternativesOf`: other spellings of each word (default none);
 * `readingsOf`: the spellings each word finds through readings, ranked below it (default none).
 * A word with no terms (`-`, `・`) is no part of the query.
 */
export function searchWords(
  work: SearchWorkspace,
  words: readonly string[],
  scored: ScoredIndex,
  limit: number,
  listsTerm: TermFilter = () => true,
  alternativesOf: AlternativesOf = () => [],
  readingsOf: AlternativesOf = () => [],
): IndexAnswer {
  try {
    return rankWords(work, words, scored, limit, listsTerm, alternativesOf, readingsOf)
  } finally {
    work.matches.release()
  }
}

function rankWords(
  work: SearchWorkspace,
  words: readonly string[],
  scored: ScoredIndex,
  limit: number,
  listsTerm: TermFilter,
  alternativesOf: AlternativesOf,
  readingsOf: AlternativesOf,
): IndexAnswer {
  const { documents } = scored
  const size = scored.stats.slots
  const bm25 = scored.termOptions.bm25!
  // why: arrays built by push, not by `map`: V8 assumed the kind of array `map` returns and
  // deoptimized the search every few hundred answers, the p99's spikes
  const allTerms: WordTerms[] = []
  for (const word of words) {
    const terms = wordTerms(work.titleDistances, word, scored, alternativesOf, readingsOf)
    // why: a word without terms (a stand-alone `-`, `・`, `「`) matches no page; kept, it left
    // an empty match set that made every page's tier NaN and emptied the answer
    if (terms.termLists.length > 0) allTerms.push(terms)
  }
  if (allTerms.length === 0) return { hits: [], total: 0 }
  const top =
    work.accelerators.titleTiers && scored.titleFieldId !== undefined
      ? titleTierTop(work, allTerms, size, limit, bm25)
      : null
  const wordMatches = top
    ? top.words
    : allTerms.map((word) => scoreWord(work.matches, word, size, bm25))
  const { ranked, total, score: finalScore } = top ?? rankAll(work, wordMatches, scored, limit)
  const sourceTermsOf = (shortId: number): string[] => {
    const terms: string[] = []
    for (const word of wordMatches) if (word.has[shortId]) addUnique(terms, word.sourceTerms)
    return terms
  }
  const { textFieldId } = scored
  const text =
    textFieldId === undefined
      ? undefined
      : { fieldId: textFieldId, lengths: documents.fieldLengths[textFieldId]! }
  const { terms, inText } = matchedTerms(work, ranked, wordMatches, size, listsTerm, text)
  const hits = ranked.map((shortId, i): IndexHit => {
    const id = documents.documentId(shortId)
    if (id === null) {
      throw new Error(
        `The search data has no page for short id ${shortId}. Rebuild it with \`npm run build\`.`,
      )
    }
    return {
      id,
      score: finalScore[shortId]!,
      terms: terms[i]!,
      queryTerms: sourceTermsOf(shortId),
      inText: textFieldId === undefined || inText[i] === 1,
    }
  })
  return { hits, total }
}

/** Every page matching the word, scored. */
function scoreWord(pool: MatchPool, word: WordTerms, size: number, bm25: Bm25): WordMatches {
  let matches: Matches | null = null
  for (const lists of word.termLists) {
    const termMatches = scoreLists(pool, lists, size, bm25)
    matches = matches ? andMatches(pool, matches, termMatches) : termMatches
  }
  return { ...(matches ?? pool.empty(0)), ...word }
}

/** Every matching page scored and re-ranked; the best `limit`. */
function rankAll(
  work: SearchWorkspace,
  wordMatches: readonly WordMatches[],
  scored: ScoredIndex,
  limit: number,
): { ranked: number[]; total: number; score: Float64Array } {
  const pool = work.matches
  // why: the first word's arrays stay as they are; they tell later which words a page matched
  // (one word is never combined, so it needs no copy)
  const combined =
    wordMatches.length === 1
      ? wordMatches[0]!
      : wordMatches
          .slice(1)
          .reduce<Matches>((a, b) => orMatches(pool, a, b), copyMatches(pool, wordMatches[0]!))
  const finalScore = pool.scratch('final', combined.score.length)
  const qualityOf = qualityFactor(wordMatches)
  const order = orderOf(combined)
  for (let n = 0; n < order.length; n++) {
    const shortId = order[n]!
    // why: MiniSearch multiplies by the number of query terms a page matched
    finalScore[shortId] = combined.score[shortId]! * qualityOf(shortId)
  }
  if (scored.titleFieldId !== undefined) {
    const tier = pool.scratch('tier', combined.score.length)
    rerankTitleFirst(wordMatches, order, finalScore, tier)
  }
  const ranked = topRanked(pool, order, finalScore, limit)
  return { ranked, total: combined.count, score: finalScore }
}
