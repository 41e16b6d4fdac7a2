import { searchWordGroups } from '../../../generated/siteContent.js'
import type { SearchServices } from '../../searchServices.js'
import { SEARCH_SYNONYMS_STORE, storeScope } from '../../storage/blobStore.js'
import { staffSynonymsNow } from '../synonyms/staffSynonymCache.js'
import type { AlternativesOf } from './wordTerms.js'
import {
  alternativesFinder,
  combineAlternatives,
  keyedGroups,
  type KeyedWordGroups,
  type WordGroups,
} from './searchAlternatives.js'

let builtIn: AlternativesOf | null = null
const withStaff = new WeakMap<WordGroups, AlternativesOf>()
const keyedWithStaff = new WeakMap<WordGroups, KeyedWordGroups>()

type SpellingServices = Pick<SearchServices, 'context' | 'log' | 'defer' | 'searchSynonyms'>

/**
 * The other spellings a query word also finds: the okurigana variants shipped with the code and
 * the synonyms of `content/search-synonyms`, both keyed by the build (`searchWordGroups`), then the synonyms staff added
 * in the dashboard (read from Blobs in the background, kept for a minute per instance).
 */
export function searchSpellings(services: SpellingServices, now: number): AlternativesOf {
  // why: the build keyed the groups; folding ~150 words here cost a cold start ~2.5 ms
  builtIn ??= alternativesFinder(searchWordGroups)
  const staff = staffGroupsNow(services, now)
  if (staff.length === 0) return builtIn
  let combined = withStaff.get(staff)
  if (!combined) {
    combined = combineAlternatives([builtIn, alternativesFinder(keyedGroups(staff))])
    withStaff.set(staff, combined)
  }
  return combined
}

/** The same groups as searchSpellings uses, each word with its spelling key (for completions). */
export function spellingGroups(services: SpellingServices, now: number): KeyedWordGroups {
  const staff = staffGroupsNow(services, now)
  if (staff.length === 0) return searchWordGroups
  let keyed = keyedWithStaff.get(staff)
  if (!keyed) {
    keyed = [...searchWordGroups, ...keyedGroups(staff)]
    keyedWithStaff.set(staff, keyed)
  }
  return keyed
}

function staffGroupsNow(services: SpellingServices, now: number): WordGroups {
  return staffSynonymsNow(
    storeScope(SEARCH_SYNONYMS_STORE, services.context),
    () => services.searchSynonyms,
    now,
    services.defer,
    (error) => services.log.error('search.synonyms_read_failed', error),
  )
}
