import { MatchPool } from './matchSets.js'
import { PostingBits } from './postingBits.js'
import { createTextCaches, type TextCaches } from './textCaches.js'

/**
 * The optional shortcuts of the search. Each gives the same answers as the plain path without
 * it, only sooner; the oracle tests (tests/search/packedIndex.test.ts) answer with every one on
 * and with every one off.
 */
export interface Accelerators {
  /**
   * Long postings lists kept as bitsets, so a frequent term is tested at a page instead of
   * walked (postingBits.ts). Default true.
   */
  postingBits: boolean
  /**
   * Only the pages whose title-first tier can reach the top of the answer are scored
   * (titleTierTop.ts); without it every matching page is scored and ranked. Default true.
   */
  titleTiers: boolean
  /**
   * A page whose text lies past its head in a text shard (index/searchText.ts) is answered
   * from its head where the head decides the excerpt and the adjacency check; without it its
   * whole text is read first (siteSearch.ts). Default true.
   */
  textHeads: boolean
}

/** Every accelerator on: what the deployed search uses. */
const ALL_ACCELERATORS: Accelerators = {
  postingBits: true,
  titleTiers: true,
  textHeads: true,
}

/**
 * What one site search instance reuses from answer to answer: arrays by short id, pooled
 * matches, the bits of long lists and the compiled forms of terms and characters. Each instance
 * makes its own (`createSearchWorkspace`) and passes it to what it calls; nothing of it lives in
 * a module. Arrays by short id are as long as the largest site searched with the workspace, and
 * every array said to be all zero is zero again when the function using it returns.
 * why: allocating these per answer made a young-generation GC every few dozen answers (the
 * p99); compiling a term's pattern or a character's normal form again for each result was
 * most of an excerpt's time
 */
export interface SearchWorkspace {
  readonly accelerators: Accelerators
  /** Matches and number arrays of the scoring (matchSets.ts), handed back after each answer. */
  readonly matches: MatchPool
  /** Long lists' bits (postingBits.ts); null when `accelerators.postingBits` is off. */
  readonly postingBits: PostingBits | null
  /** The scoring of postings lists (scoringLists.ts). */
  readonly scoring: ScoringScratch
  /** Title-first ranking: how far each title is from a word (titleFirstRanking.ts). */
  readonly titleDistances: TitleDistanceScratch
  /** The title-tier shortcut's page marks (titleTierTop.ts). */
  readonly titleTiers: TitleTierScratch
  /** The terms a hit lists (hitTerms.ts). */
  readonly hitTerms: HitTermScratch
  /** Term patterns and character forms for excerpts and highlighting (textCaches.ts). */
  readonly text: TextCaches
}

export function createSearchWorkspace(accelerators: Partial<Accelerators> = {}): SearchWorkspace {
  const chosen = { ...ALL_ACCELERATORS, ...accelerators }
  return {
    accelerators: chosen,
    matches: new MatchPool(),
    postingBits: chosen.postingBits ? new PostingBits() : null,
    scoring: new ScoringScratch(),
    titleDistances: new TitleDistanceScratch(),
    titleTiers: new TitleTierScratch(),
    hitTerms: new HitTermScratch(),
    text: createTextCaches(),
  }
}

/** scoringLists.ts: one word's scores while its terms are added up, by short id. */
export class ScoringScratch {
  /** The score of the term being added, by short id. */
  termScores = new Float64Array(0)
  /** 1 where `termScores` holds the term's score; all zero. */
  termSeen = new Uint8Array(0)
  /** Positions in a postings list (`listedPages`), as long as the pages scored. */
  found = new Int32Array(0)
  /** How many terms of a word each page matched so far; all zero. */
  counters = new Uint8Array(0)
  /** The pages every dense term holds, as bits, and scratch of the same length. */
  bits = new Uint32Array(0)
  spareBits = new Uint32Array(0)

  /** Makes `termScores` and `termSeen` hold `size` pages, `found` `pages` positions. */
  fitTerms(size: number, pages: number): void {
    if (this.termScores.length < size) {
      this.termScores = new Float64Array(size)
      this.termSeen = new Uint8Array(size)
    }
    if (this.found.length < pages) this.found = new Int32Array(pages)
  }

  fitCounters(size: number): void {
    if (this.counters.length < size) this.counters = new Uint8Array(size)
  }

  /** Makes `bits` and `spareBits` exactly `words` long. */
  fitBits(words: number): void {
    if (this.bits.length !== words) {
      this.bits = new Uint32Array(words)
      this.spareBits = new Uint32Array(words)
    }
  }
}

/** titleFirstRanking.ts, `titleDistances`: what each page's title reached, by short id. */
export class TitleDistanceScratch {
  /** The nearest distance a term reached the title at; UNREACHED throughout between uses. */
  nearest = new Uint8Array(0)
  /** How many of the word's terms reached the title; all zero. */
  reached = new Uint16Array(0)
  /** The largest of the terms' nearest distances; all zero. */
  farthest = new Uint8Array(0)
  /** The pages whose title some term reached, and those one term reached. */
  holders = new Int32Array(0)
  touched = new Int32Array(0)

  fit(size: number, unreached: number): void {
    if (this.nearest.length < size) {
      this.nearest = new Uint8Array(size).fill(unreached)
      this.reached = new Uint16Array(size)
      this.farthest = new Uint8Array(size)
      this.holders = new Int32Array(size)
      this.touched = new Int32Array(size)
    }
  }
}

/** titleTierTop.ts: pages marked while the shortcut runs, by short id. */
export class TitleTierScratch {
  /** 1 at the pages being looked at (title holders, candidates); all zero. */
  marks = new Uint8Array(0)
  /** 1 where a page's score sum has started; all zero. */
  started = new Uint8Array(0)

  fit(size: number): void {
    if (this.marks.length < size) {
      this.marks = new Uint8Array(size)
      this.started = new Uint8Array(size)
    }
  }
}

/** hitTerms.ts: the hits being looked up, by short id. */
export class HitTermScratch {
  /** 1 at a word's hits; all zero. */
  hits = new Uint8Array(0)
  /** 1 at the hits not yet known to hold a matched term in their text; all zero. */
  text = new Uint8Array(0)

  fit(size: number): void {
    if (this.hits.length < size) {
      this.hits = new Uint8Array(size)
      this.text = new Uint8Array(size)
    }
  }
}
