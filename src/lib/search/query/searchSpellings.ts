import { searchWordGroups } from '../../../generated/siteContent.js'
import type { SearchServices } from '../../searchServices.js'
import { SEARCH_SYNONYMS_STORE, storeScope } from '../../storage/blobStore.js'
import { StaffSynonymCache, type SynonymSource } from '../synonyms/staffSynonymCache.js'
import {
  alternativesFinder,
  combineAlternatives,
  keyedGroups,
  type KeyedWordGroups,
  type WordGroups,
} from './searchAlternatives.js'
import type { AlternativesOf } from './wordTerms.js'

type SpellingServices = Pick<SearchServices, 'context' | 'log' | 'defer' | 'searchSynonyms'>

/**
 * The other spellings query words also find, and the groups they come from, as one function
 * instance keeps them: the groups the build keyed (the okurigana variants shipped with the code
 * and the synonyms of `content/search-synonyms`), then the synonyms staff added in the dashboard
 * (read from Blobs when missing or a minute old, StaffSynonymCache). Another source of
 * spellings (readings, romaji) is one more finder combined in `alternatives`.
 */
export class SearchSpellings {
  readonly #builtInGroups: KeyedWordGroups
  #builtIn: AlternativesOf | null = null
  readonly #staff = new StaffSynonymCache()
  // why: by the staff groups as read, so a combined finder is made once per read
  readonly #withStaff = new WeakMap<WordGroups, AlternativesOf>()
  readonly #keyedWithStaff = new WeakMap<WordGroups, KeyedWordGroups>()

  constructor(builtInGroups: KeyedWordGroups) {
    this.#builtInGroups = builtInGroups
  }

  /** What each query word also finds (searches). */
  alternatives(services: SpellingServices, now: number): AlternativesOf {
    // why: made at the first search, from the groups the build keyed (folding every word of
    // the groups here would cost each cold start)
    const builtIn = (this.#builtIn ??= alternativesFinder(this.#builtInGroups))
    const staff = this.#staffGroups(services, now)
    if (staff.length === 0) return builtIn
    let combined = this.#withStaff.get(staff)
    if (!combined) {
      combined = combineAlternatives([builtIn, alternativesFinder(keyedGroups(staff))])
      this.#withStaff.set(staff, combined)
    }
    return combined
  }

  /** The same groups, each word with its spelling key (completions). */
  groups(services: SpellingServices, now: number): KeyedWordGroups {
    const staff = this.#staffGroups(services, now)
    if (staff.length === 0) return this.#builtInGroups
    let keyed = this.#keyedWithStaff.get(staff)
    if (!keyed) {
      keyed = [...this.#builtInGroups, ...keyedGroups(staff)]
      this.#keyedWithStaff.set(staff, keyed)
    }
    return keyed
  }

  /**
   * Waits (briefly) for the staff's groups when this instance's are missing or a minute old, so
   * that the answer after it uses a group saved a minute ago (StaffSynonymCache.upToDate).
   */
  staffUpToDate(services: SpellingServices, now: number): Promise<void> {
    return this.#staff.upToDate(staffSource(services), now)
  }

  #staffGroups(services: SpellingServices, now: number): WordGroups {
    return this.#staff.groupsNow(staffSource(services), now)
  }
}

function staffSource(services: SpellingServices): SynonymSource {
  return {
    scope: storeScope(SEARCH_SYNONYMS_STORE, services.context),
    repository: () => services.searchSynonyms,
    defer: services.defer,
    onError: (error) => services.log.error('search.synonyms_read_failed', error),
  }
}

/** This deploy's spellings: one per function instance, kept while the instance lives. */
const deployedSpellings = new SearchSpellings(searchWordGroups)

/**
 * Brings this deploy's staff synonyms up to date before a search or completion answers
 * (SearchSpellings.staffUpToDate); never throws.
 */
export function staffSynonymsRead(services: SpellingServices, now: number): Promise<void> {
  return deployedSpellings.staffUpToDate(services, now)
}

/** What each query word also finds on this deploy (SearchSpellings.alternatives). */
export function searchSpellings(services: SpellingServices, now: number): AlternativesOf {
  return deployedSpellings.alternatives(services, now)
}

/** The groups searchSpellings uses, each word with its spelling key (for completions). */
export function spellingGroups(services: SpellingServices, now: number): KeyedWordGroups {
  return deployedSpellings.groups(services, now)
}
