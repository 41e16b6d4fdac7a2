import type { SearchSynonymRepository } from '../../storage/searchSynonymRepository.js'

/** How long an instance uses the synonyms it read before reading them again. */
export const SYNONYM_CACHE_MS = 60_000
// why: a failed read is tried again after this pause, not at every search while the store fails
const RETRY_MS = 5_000

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

/** Where one scope's groups are read, and what to do with the read and its failure. */
export interface SynonymSource {
  /** The Blobs environment the groups belong to (storeScope). */
  scope: string
  repository: () => SearchSynonymRepository
  /** Hands the read over to finish after the answer (the request's `waitUntil`). */
  defer: (read: Promise<void>) => void
  onError: (error: unknown) => void
}

/**
 * The staff's synonym groups as one function instance last read them, per Blobs environment
 * (storeScope), read again once older than SYNONYM_CACHE_MS, so that a group staff add is used
 * within a minute without a rebuild.
 */
export class StaffSynonymCache {
  readonly #byScope = new Map<string, CachedGroups>()

  /** The groups as last read (none before the first read); starts a read when they are stale. */
  groupsNow(source: SynonymSource, now: number): readonly (readonly string[])[] {
    return this.#entry(source, now).groups
  }

  /**
   * Brings the groups up to date before an answer: when they are missing or older than a minute
   * it waits for a read, at most `waitMs`, so a group staff saved is used by every search a
   * minute later, also by an instance's first search (under `npm start` every request is a new
   * instance). A read that already kept one search waiting its time keeps no other waiting.
   * `wait` sleeps (`setTimeout` by default). Never throws: a failed read goes to `onError`.
   */
  async upToDate(
    source: SynonymSource,
    now: number,
    waitMs = SYNONYM_READ_WAIT_MS,
    wait: (ms: number) => Promise<void> = sleep,
  ): Promise<void> {
    const entry = this.#entry(source, now)
    const left = entry.readAt + waitMs - now
    if (!entry.reading || left <= 0) return
    await Promise.race([entry.reading, wait(left)])
  }

  #entry(source: SynonymSource, now: number): CachedGroups {
    const cached = this.#byScope.get(source.scope)
    if (cached && (cached.reading || now - cached.readAt < SYNONYM_CACHE_MS)) return cached
    const entry: CachedGroups = { groups: cached?.groups ?? [], readAt: now, reading: null }
    this.#byScope.set(source.scope, entry)
    entry.reading = (async () => {
      try {
        const { groups } = await source.repository().list()
        entry.groups = groups.map((group) => group.words)
      } catch (error) {
        source.onError(error)
        entry.readAt = now - SYNONYM_CACHE_MS + RETRY_MS
      } finally {
        entry.reading = null
      }
    })()
    source.defer(entry.reading)
    return entry
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    // why: a timer left behind must not keep a test process or an instance alive
    setTimeout(resolve, ms).unref?.()
  })
}
