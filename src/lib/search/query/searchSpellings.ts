import { searchSynonyms } from '../../../generated/siteContent.js'
import type { Logger } from '../../log.js'
import type { RequestContext } from '../../requestContext.js'
import { SEARCH_SYNONYMS_STORE, storeScope } from '../../storage/blobStore.js'
import { openSearchSynonymRepository } from '../../storage/searchSynonymRepository.js'
import { cachedStaffSynonyms } from '../synonyms/staffSynonyms.js'
import { SPELLING_VARIANTS } from '../terms/spellingVariants.js'
import type { AlternativesOf } from './minisearchScoring.js'
import { alternativesFinder, combineAlternatives, type WordGroups } from './searchAlternatives.js'

// why: a slow store must not hold a search for long; the next search tries again
const STAFF_SYNONYMS_TIMEOUT_MS = 200

let builtIn: AlternativesOf | null = null
const withStaff = new WeakMap<WordGroups, AlternativesOf>()

/**
 * The other spellings a query word also finds: the okurigana variants shipped with the code,
 * the synonyms of `content/search-synonyms` baked into this build, then the synonyms staff added
 * in the dashboard (read from Blobs, kept for a minute per instance).
 */
export async function searchSpellings(
  context: RequestContext,
  log: Logger,
  now: number,
): Promise<AlternativesOf> {
  builtIn ??= combineAlternatives([
    alternativesFinder(SPELLING_VARIANTS),
    alternativesFinder(searchSynonyms),
  ])
  const staff = await Promise.race([
    cachedStaffSynonyms(
      storeScope(SEARCH_SYNONYMS_STORE, context),
      () => openSearchSynonymRepository(context),
      now,
      (error) => log.error('search.synonyms_read_failed', error),
    ),
    new Promise<WordGroups>((resolve) =>
      setTimeout(() => resolve([]), STAFF_SYNONYMS_TIMEOUT_MS).unref(),
    ),
  ])
  if (staff.length === 0) return builtIn
  let combined = withStaff.get(staff)
  if (!combined) {
    combined = combineAlternatives([builtIn, alternativesFinder(staff)])
    withStaff.set(staff, combined)
  }
  return combined
}
