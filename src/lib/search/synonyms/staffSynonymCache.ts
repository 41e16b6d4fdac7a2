import type { SearchSynonymRepository } from '../../storage/searchSynonymRepository.js'

/** How long an instance uses the synonyms it read before reading them again. */
export const SYNONYM_CACHE_MS = 60_000
// why: a failed read is tried again after this pause, not at every search while the store fails
const RETRY_MS = 5_000

interface CachedGroups {
  groups: readonly (readonly string[])[]
  readAt: number
  reading: boolean
}

/**
 * The staff's synonym groups as one function instance last read them, per Blobs environment
 * (storeScope), read again once older than SYNONYM_CACHE_MS, so that a group staff add is used
 * within a minute without a rebuild.
 */
export class StaffSynonymCache {
  readonly #byScope = new Map<string, CachedGroups>()

  /**
   * The groups as last read (none before the first read). When they are missing or older than
   * a minute, a read starts, handed to `defer` (the request's `waitUntil`) after the answer; the
   * searches after it use what it read.
   * why: a search never waits for Blobs: on a cold start the read (the fetch machinery's first
   * use and a round trip) would cost the first answer more than the search itself
   */
  groupsNow(
    scope: string,
    repository: () => SearchSynonymRepository,
    now: number,
    defer: (read: Promise<void>) => void,
    onError: (error: unknown) => void,
  ): readonly (readonly string[])[] {
    const cached = this.#byScope.get(scope)
    if (cached && (cached.reading || now - cached.readAt < SYNONYM_CACHE_MS)) return cached.groups
    const entry: CachedGroups = { groups: cached?.groups ?? [], readAt: now, reading: true }
    this.#byScope.set(scope, entry)
    defer(
      (async () => {
        try {
          await new Promise((resolve) => setImmediate(resolve))
          const { groups } = await repository().list()
          entry.groups = groups.map((group) => group.words)
        } catch (error) {
          onError(error)
          entry.readAt = now - SYNONYM_CACHE_MS + RETRY_MS
        } finally {
          entry.reading = false
        }
      })(),
    )
    return entry.groups
  }
}
