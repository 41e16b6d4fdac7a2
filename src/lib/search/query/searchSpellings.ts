import { searchWordGroups } from '../../../generated/siteContent.js'
import type { Services } from '../../services.js'
import { SEARCH_SYNONYMS_STORE, storeScope } from '../../storage/blobStore.js'
import { staffSynonymsNow } from '../synonyms/staffSynonymCache.js'
import type { AlternativesOf } from './minisearchScoring.js'
import {
  alternativesFinder,
  combineAlternatives,
  keyedGroups,
  type WordGroups,
} from './searchAlternatives.js'

let builtIn: AlternativesOf | null = null
const withStaff = new WeakMap<WordGroups, AlternativesOf>()

/**
 * The other spellings a query word also finds: the okurigana variants shipped with the code and
 * the synonyms of `content/search-synonyms`, both keyed by the build (`searchWordGroups`), then the synonyms staff added
 * in the dashboard (read from Blobs in the background, kept for a minute per instance).
 */
export function searchSpellings(
  services: Pick<Services, 'context' | 'log' | 'defer' | 'searchSynonyms'>,
  now: number,
): AlternativesOf {
  const { context, log } = services
  // why: the build keyed the groups; folding ~150 words here cost a cold start ~2.5 ms
  builtIn ??= alternativesFinder(searchWordGroups)
  const staff = staffSynonymsNow(
    storeScope(SEARCH_SYNONYMS_STORE, context),
    () => services.searchSynonyms,
    now,
    services.defer,
    (error) => log.error('search.synonyms_read_failed', error),
  )
  if (staff.length === 0) return builtIn
  let combined = withStaff.get(staff)
  if (!combined) {
    combined = combineAlternatives([builtIn, alternativesFinder(keyedGroups(staff))])
    withStaff.set(staff, combined)
  }
  return combined
}
