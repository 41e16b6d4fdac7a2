import type { SearchServices } from '../../searchServices.js'
import { SEARCH_SYNONYMS_STORE, storeScope } from '../../storage/blobStore.js'
import type { SearchSynonymRepository } from '../../storage/searchSynonymRepository.js'

/** How long an instance uses the synonyms it read before reading them again. */
export const SYNONYM_CACHE_MS = 60_000

/**
 * Longest a search waits for the staff's groups before it answers with what the instance has
 * (none on its first search); the read then goes on after the answer.
 * why: the Blobs client retries a failing store for many seconds; a shopper's search must not
 */
export const SYNONYM_READ_WAIT_MS = 500

interface CachedGroups {
  groups: readonly (readonly string[])[]
  readAt: number
  /** The read under way, if any. */
  reading: Promise<void> | null
}

// why: per instance and per Blobs environment (storeScope); read again after SYNONYM_CACHE_MS so
// that a group staff add is used within a minute without a rebuild
const cache = new Map<string, CachedGroups>()

/**
 * The entry of `scope`, with a read started (and handed to `defer`) when its groups are missing
 * or older than a minute and none is under way.
 */
function entryOf(
  scope: string,
  repository: () => SearchSynonymRepository,
  now: number,
  defer: (read: Promise<void>) => void,
  onError: (error: unknown) => void,
): CachedGroups {
  const cached = cache.get(scope)
  if (cached && (cached.reading || now - cached.readAt < SYNONYM_CACHE_MS)) return cached
  const entry: CachedGroups = { groups: cached?.groups ?? [], readAt: now, reading: null }
  cache.set(scope, entry)
  entry.reading = (async () => {
    try {
      const { groups } = await repository().list()
      entry.groups = groups.map((group) => group.words)
    } catch (error) {
      onError(error)
      // why: retried after a short pause, not at every search while the store is failing
      entry.readAt = now - SYNONYM_CACHE_MS + 5_000
    } finally {
      entry.reading = null
    }
  })()
  defer(entry.reading)
  return entry
}

/**
 * The staff's groups as this instance last read them (none before the first read); starts a
 * read when they are missing or older than a minute (`staffSynonymsRead` waits for it first).
 */
export function staffSynonymsNow(
  scope: string,
  repository: () => SearchSynonymRepository,
  now: number,
  defer: (read: Promise<void>) => void,
  onError: (error: unknown) => void,
): readonly (readonly string[])[] {
  return entryOf(scope, repository, now, defer, onError).groups
}

/**
 * Brings this instance's staff synonyms up to date before a search or completion answers: when
 * they are missing or older than a minute it waits for a read (at most `SYNONYM_READ_WAIT_MS`),
 * so a group staff saved is used by every search a minute later, also by an instance's first
 * search (under `npm start` every request is a new instance). Never throws: a failed read is
 * logged as `search.synonyms_read_failed` and the search answers with what the instance has.
 */
export async function staffSynonymsRead(
  services: Pick<SearchServices, 'context' | 'log' | 'defer' | 'searchSynonyms'>,
  now: number,
): Promise<void> {
  const entry = entryOf(
    storeScope(SEARCH_SYNONYMS_STORE, services.context),
    () => services.searchSynonyms,
    now,
    services.defer,
    (error) => services.log.error('search.synonyms_read_failed', error),
  )
  // why: a read that already kept a search waiting its time goes on without another one waiting
  const wait = entry.readAt + SYNONYM_READ_WAIT_MS - now
  if (!entry.reading || wait <= 0) return
  let timer: ReturnType<typeof setTimeout> | undefined
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))
  await Promise.race([entry.reading, waited])
  clearTimeout(timer)
}
