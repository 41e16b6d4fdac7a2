import { z } from '../../../generated/zod.js'
import { searchSynonyms } from '../../../generated/siteContent.js'
import { HttpError } from '../../http/errors.js'
import {
  newSynonymId,
  type SearchSynonymRepository,
  type SynonymGroup,
} from '../../storage/searchSynonymRepository.js'
import { spellingKey } from '../query/searchAlternatives.js'

/** How long an instance uses the synonyms it read before reading them again. */
export const SYNONYM_CACHE_MS = 60_000
/** Most groups staff can keep. */
export const MAX_SYNONYM_GROUPS = 500

const WORDS_MESSAGE = 'words must be a list of 2 to 10 different words of 1 to 40 characters'
const ID_MESSAGE = 'id must be a synonym group id'

/** Body of POST /api/admin/search/synonyms. */
export const addSynonymsRequestSchema = z.object({
  words: z
    .array(
      z.string({ error: WORDS_MESSAGE }).trim().min(1, { error: WORDS_MESSAGE }).max(40, {
        error: WORDS_MESSAGE,
      }),
      { error: WORDS_MESSAGE },
    )
    .min(2, { error: WORDS_MESSAGE })
    .max(10, { error: WORDS_MESSAGE }),
})

/** Body of POST /api/admin/search/synonyms/remove. */
export const deleteSynonymsRequestSchema = z.object({
  id: z.string({ error: ID_MESSAGE }).regex(/^syn_[a-f0-9]{16}$/, { error: ID_MESSAGE }),
})

/** Body of POST /api/admin/search/synonyms/list (nothing to set). */
export const listSynonymsRequestSchema = z.object({})

/** A group's words are the same word once folded (`チャセン`, `ちゃせん`), or too many groups. */
export class SynonymWordsError extends HttpError {
  override name = 'SynonymWordsError'
  constructor(message: string) {
    super(400, message)
  }
}

/** No group with the id (deleted already, or never added). */
export class SynonymNotFoundError extends HttpError {
  override name = 'SynonymNotFoundError'
  constructor() {
    super(404, SYNONYM_NOT_FOUND_MESSAGE)
  }
}

export const SYNONYM_NOT_FOUND_MESSAGE = 'Synonym group not found'
export const SAME_WORDS_MESSAGE =
  'words must differ once normalised (katakana = hiragana, case, width) and hold letters or digits'

/** The synonym groups staff added and those of the build's content/search-synonyms. */
export async function listSynonyms(
  repository: SearchSynonymRepository,
): Promise<{ groups: SynonymGroup[]; builtIn: string[][] }> {
  const { groups } = await repository.list()
  return { groups, builtIn: searchSynonyms.map((group) => [...group]) }
}

/** Adds a group of words that find each other; answers the group. */
export async function addSynonymGroup(
  repository: SearchSynonymRepository,
  words: readonly string[],
  now: Date,
): Promise<SynonymGroup> {
  const keys = new Set(words.map(spellingKey))
  if (keys.has('') || keys.size !== words.length) {
    throw new SynonymWordsError(SAME_WORDS_MESSAGE)
  }
  const group: SynonymGroup = {
    id: newSynonymId(),
    words: [...words],
    createdAt: now.toISOString(),
  }
  await repository.update((list) => {
    if (list.groups.length >= MAX_SYNONYM_GROUPS) {
      throw new SynonymWordsError(`At most ${MAX_SYNONYM_GROUPS} synonym groups; delete one first`)
    }
    return { groups: [...list.groups, group] }
  })
  return group
}

/** Deletes a group by id. */
export async function deleteSynonymGroup(
  repository: SearchSynonymRepository,
  id: string,
): Promise<void> {
  await repository.update((list) => {
    if (!list.groups.some((group) => group.id === id)) throw new SynonymNotFoundError()
    return { groups: list.groups.filter((group) => group.id !== id) }
  })
}

interface CachedGroups {
  groups: readonly (readonly string[])[]
  readAt: number
  reading: boolean
}

// why: per instance and per Blobs environment (storeScope); read again after SYNONYM_CACHE_MS so
// that a group staff add is used within a minute without a rebuild
const cache = new Map<string, CachedGroups>()

/**
 * The staff's groups as this instance last read them (none before the first read). When they
 * are missing or older than a minute, a read starts, handed to `defer` (the request's
 * `waitUntil`) after the answer; the searches after it use what it read.
 * why: a search never waits for Blobs: on a cold start the read (the fetch machinery's first use
 * and a round trip) doubled the CPU time of the first answer
 */
export function staffSynonymsNow(
  scope: string,
  repository: () => SearchSynonymRepository,
  now: number,
  defer: (read: Promise<void>) => void,
  onError: (error: unknown) => void,
): readonly (readonly string[])[] {
  const cached = cache.get(scope)
  if (cached && (cached.reading || now - cached.readAt < SYNONYM_CACHE_MS)) return cached.groups
  const entry: CachedGroups = { groups: cached?.groups ?? [], readAt: now, reading: true }
  cache.set(scope, entry)
  defer(
    (async () => {
      try {
        await new Promise((resolve) => setImmediate(resolve))
        const { groups } = await repository().list()
        entry.groups = groups.map((group) => group.words)
      } catch (error) {
        onError(error)
        // why: retried after a short pause, not at every search while the store is failing
        entry.readAt = now - SYNONYM_CACHE_MS + 5_000
      } finally {
        entry.reading = false
      }
    })(),
  )
  return entry.groups
}
