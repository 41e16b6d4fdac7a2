import type { SiteSearchData } from '../index/searchDataReader.js'
import {
  fileTextSource,
  MissingSearchTextError,
  type SearchTextSource,
} from '../index/searchText.js'
import type { StoredPage } from '../siteContentTypes.js'
import type { TextPlainness } from './characterOutputs.js'
import type { KnownFirstMatches } from './firstMatch.js'
import type { TextCaches } from './textCaches.js'

/**
 * A page's whole text; null while its shard is not read yet (the answer is then thrown away),
 * UNREAD when its shard could not be read in this answer.
 */
export type WholeText = (page: StoredPage) => string | null | typeof UNREAD
export const UNREAD = Symbol('unread')

/**
 * The pages' whole texts, for pages whose data holds only a head: the text shards read so far
 * (index/searchText.ts), kept for the instance's life.
 */
export interface PageTexts {
  /** The page's whole text, or null while its shard is not read. */
  whole(page: StoredPage): string | null
  /**
   * Reads `wanted` shards (each once, also for answers at the same time); the shards that
   * could not be read, with why: a later read tries them again.
   */
  read(
    data: SiteSearchData,
    wanted: Set<number>,
    remoteText?: SearchTextSource,
  ): Promise<Map<number, unknown>>
}

export function pageTexts(): PageTexts {
  const tails = new Map<string, string>()
  const wholeTexts = new Map<string, string>()
  const shards = new Map<number, Promise<void>>()
  let local: { folder: string; source: SearchTextSource } | null = null
  return {
    whole(page: StoredPage): string | null {
      if (page.textShard === undefined) return page.text
      let text = wholeTexts.get(page.id)
      if (text === undefined) {
        const tail = tails.get(page.id)
        if (tail === undefined) return null
        // why: kept, so V8 flattens the joined string once, not at each answer
        text = page.text + tail
        wholeTexts.set(page.id, text)
        tails.delete(page.id)
      }
      return text
    },
    async read(
      data: SiteSearchData,
      wanted: Set<number>,
      remoteText?: SearchTextSource,
    ): Promise<Map<number, unknown>> {
      if (data.textFolder !== null && local?.folder !== data.textFolder) {
        local = { folder: data.textFolder, source: fileTextSource(data.textFolder) }
      }
      const source = local?.source ?? remoteText
      const failed = new Map<number, unknown>()
      await Promise.all(
        [...wanted].map((n) => {
          let reading = shards.get(n)
          if (!reading) {
            reading = source
              ? source.shard(data.dataId, n).then((shard) => {
                  for (const [id, tail] of Object.entries(shard)) tails.set(id, tail)
                })
              : Promise.reject(new MissingSearchTextError('no text source (no remoteText)'))
            shards.set(n, reading)
          }
          const read = reading
          return read.catch((error: unknown) => {
            if (shards.get(n) === read) shards.delete(n)
            failed.set(n, error)
          })
        }),
      )
      return failed
    },
  }
}

/** The first matches found so far in a page's stored text in this answer (made when `create`). */
export type KnownIn = (page: StoredPage, create: boolean) => KnownFirstMatches | undefined

/** What looking at pages' texts works with during one answer (siteSearch.ts). */
export interface PageReading {
  caches: TextCaches
  /**
   * Whether a page whose text lies partly in a shard is answered from its head where the head
   * decides (Accelerators.textHeads); else its whole text is read first.
   */
  heads: boolean
  wholeText: WholeText
  knownIn: KnownIn
}

/** What the data tells of the page's text (see TextPlainness). */
export function plainness(page: StoredPage): TextPlainness {
  return page.textIsPlain === true || (page.textNotPlain ?? false)
}
