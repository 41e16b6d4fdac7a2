import type { Store } from '@netlify/blobs'
import { ConcurrentChangeError } from '../errors.js'
import { SEARCH_SYNONYMS_STORE, SYNONYMS_KEY } from './blobLayout.js'
import { openStore } from './blobStore.js'
import type { RequestContext } from '../requestContext.js'

/** A group of words staff declared to find each other (`抹茶`, `matcha`). */
export interface SynonymGroup {
  /** `syn_<random>`. */
  id: string
  words: string[]
  createdAt: string
}

/** Every group staff added, in the order added. */
export interface SynonymList {
  groups: SynonymGroup[]
}

export interface SearchSynonymRepository {
  /** The stored list (empty when nothing was added yet). */
  list(): Promise<SynonymList>
  /** Applies `change` to the stored list with compare-and-swap; answers the list written. */
  update(change: (list: SynonymList) => SynonymList): Promise<SynonymList>
}

/** The list kept changing under each of `MAX_ATTEMPTS` writes in a row; nothing was written. */
export class SynonymListConflictError extends ConcurrentChangeError {
  override name = 'SynonymListConflictError'
  constructor() {
    super(
      SYNONYMS_KEY,
      'The synonym list was changed by other requests during each attempt; send the request again.',
    )
  }
}

const MAX_ATTEMPTS = 5

/** A new group id. */
export function newSynonymId(): string {
  return `syn_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`
}

function isSynonymList(value: unknown): value is SynonymList {
  if (typeof value !== 'object' || value === null) return false
  const groups = (value as { groups?: unknown }).groups
  return (
    Array.isArray(groups) &&
    groups.every(
      (group: Partial<SynonymGroup>) =>
        typeof group?.id === 'string' &&
        Array.isArray(group.words) &&
        group.words.every((word) => typeof word === 'string'),
    )
  )
}

export function searchSynonymRepository(store: Store): SearchSynonymRepository {
  const read = async (): Promise<{ list: SynonymList; etag: string | null }> => {
    const found = await store.getWithMetadata(SYNONYMS_KEY, { type: 'json' })
    if (!found) return { list: { groups: [] }, etag: null }
    // why: a damaged blob is treated as empty for reading; a write replaces it (CAS on its ETag)
    return {
      list: isSynonymList(found.data) ? found.data : { groups: [] },
      etag: found.etag ?? null,
    }
  }
  return {
    list: async () => (await read()).list,
    async update(change) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { list, etag } = await read()
        const next = change(list)
        const condition = etag ? { onlyIfMatch: etag } : { onlyIfNew: true as const }
        const { modified } = await store.setJSON(SYNONYMS_KEY, next, condition)
        if (modified) return next
      }
      throw new SynonymListConflictError()
    },
  }
}

/** The staff's synonym list of this deploy's store. Opened by the wiring (services.ts) or a test. */
export function openSearchSynonymRepository(context?: RequestContext): SearchSynonymRepository {
  return searchSynonymRepository(openStore(SEARCH_SYNONYMS_STORE, context))
}
