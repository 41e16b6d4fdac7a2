import { readFile } from 'node:fs/promises'
import path from 'node:path'

/*
 * Page text past its head, kept out of the search function (issue 21: at 50,000 pages the text
 * alone zipped to ~47 MiB of the 76). The build writes it in shards of a few pages each, named by
 * the data file's id, and publishes them with the site (`public/search-text/<dataId>/<n>.json`);
 * the data file keeps each page's first TEXT_HEAD_CHARS characters (docs/search.md, "Package
 * size (issue 21)").
 */

/**
 * Characters of a page's text kept in the data file; the rest goes to a text shard. More than
 * the longest excerpt (500), so an excerpt from the start never needs a shard.
 */
export const TEXT_HEAD_CHARS = 512

/**
 * Pages per text shard (by short id): at 50,000 pages 12,500 files of ~15 KB.
 * why: an answer needs the tails of pages spread over the whole site; with 32 pages a shard,
 * a fresh instance read 20 shards (2.8 MB) for one answer at 2,000 pages
 */
export const TEXT_SHARD_PAGES = 4

/** Folder of the shards beside the data file (`src/generated`), and their path on the site. */
export const SEARCH_TEXT_FOLDER = 'search-text'

/** A shard: page id → the page's text past its head. */
export type TextShard = Record<string, string>

/** Where the search reads text shards from; a missing shard rejects. */
export interface SearchTextSource {
  shard(dataId: string, shard: number): Promise<TextShard>
}

/** A text shard could not be read (the deploy's `search-text` files missing or out of date). */
export class MissingSearchTextError extends Error {
  constructor(where: string, cause?: unknown) {
    super(
      `No page text shard at ${where}. Run \`npm run build\` (it writes src/generated/` +
        `${SEARCH_TEXT_FOLDER} and public/${SEARCH_TEXT_FOLDER}) and deploy public/ with the function.`,
      { cause },
    )
    this.name = 'MissingSearchTextError'
  }
}

const shardName = (dataId: string, shard: number): string =>
  `${SEARCH_TEXT_FOLDER}/${dataId}/${shard}.json`

/** Shards read from files under `folder` (the one holding `search-text/`). */
export function fileTextSource(folder: string): SearchTextSource {
  return {
    async shard(dataId, shard) {
      const file = path.join(folder, shardName(dataId, shard))
      try {
        return JSON.parse(await readFile(file, 'utf8')) as TextShard
      } catch (error) {
        throw new MissingSearchTextError(file, error)
      }
    },
  }
}

/**
 * Shards fetched from the site's own origin (`new URL(request.url).origin`), where the deploy
 * publishes them as static files; how the deployed function reads them.
 */
export function originTextSource(origin: string, fetchFn: typeof fetch = fetch): SearchTextSource {
  return {
    async shard(dataId, shard) {
      const url = new URL(`/${shardName(dataId, shard)}`, origin)
      let response: Response
      try {
        response = await fetchFn(url)
      } catch (error) {
        throw new MissingSearchTextError(url.href, error)
      }
      if (!response.ok) throw new MissingSearchTextError(`${url.href} (${response.status})`)
      return (await response.json()) as TextShard
    },
  }
}
