import { z } from '../../../generated/zod.js'
import { searchSynonyms } from '../../../generated/siteContent.js'
import { InvalidInputError, NotFoundError } from '../../errors.js'
import {
  newSynonymId,
  type SearchSynonymRepository,
  type SynonymGroup,
} from '../../storage/searchSynonymRepository.js'
import { spellingKey } from '../query/searchAlternatives.js'

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
export class SynonymWordsError extends InvalidInputError {
  override name = 'SynonymWordsError'
}

/** No group with the id (deleted already, or never added). */
export class SynonymNotFoundError extends NotFoundError {
  override name = 'SynonymNotFoundError'
  constructor() {
    super(SYNONYM_NOT_FOUND_MESSAGE)
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
  // why: a list that kept changing under every write throws ConcurrentChangeError (409)
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
