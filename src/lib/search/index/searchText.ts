import { readFileSync } from 'node:fs'
import path from 'node:path'

/*
 * Page text past its head, kept out of the search function when the whole text would make it
 * too large for Netlify's 50 MB zipped function (on a large site the text is most of the
 * package). Only then the build writes it in shards of a few pages each, named by the data
 * file's id, and publishes them with the site (`public/search-text/<dataId>/<n>.json`); the data
 * file keeps each page's first TEXT_HEAD_CHARS characters (docs/search.md, "Package size").
 */

/**
 * Build option: the most bytes of page text (UTF-8, as stored: spaces collapsed, all pages
 * together) kept whole in the data file. Default 128,000,000. Up to it every text stays in the
 * function (no shards, no fetch); above it the build keeps heads and writes shards. why this
 * number: with the text whole, the bench site's zipped package reaches the 50 MB limit at about
 * 159 MB of text; 128 MB leaves room for sites whose pages carry more index per byte of text
 * (docs/search.md, "Package size"). The 20,000-page bench site stays whole, 50,000 splits.
 */
export const INLINE_TEXT_BYTES = 128_000_000

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

/** Where the search reads text shards from; a shard that cannot be read rejects. */
export interface SearchTextSource {
  shard(dataId: string, shard: number): Promise<TextShard>
}

/**
 * A text shard could not be read: the deploy's `search-text` files missing or out of date, the
 * site's origin failing, slow or behind password protection. The search answers from the pages'
 * heads instead and logs it (siteSearch.ts).
 */
export class MissingSearchTextError extends Error {
  constructor(where: string, cause?: unknown) {
    super(
      `No page text shard at ${where}. Run \`npm run build\` (it writes src/generated/` +
        `${SEARCH_TEXT_FOLDER} and public/${SEARCH_TEXT_FOLDER}), deploy public/ with the ` +
        'function, and turn off password protection for the site (the function cannot pass it).',
      { cause },
    )
    this.name = 'MissingSearchTextError'
  }
}

const shardName = (dataId: string, shard: number): string =>
  `${SEARCH_TEXT_FOLDER}/${dataId}/${shard}.json`

/**
 * Shards read from files under `folder` (the one holding `search-text/`): `npm start`, tests.
 * why: read synchronously: a shard file is small and read at once, while an answer's few dozen
 * reads through the thread pool wait in turn for its four threads and the event loop, a large
 * part of a cold start
 */
export function fileTextSource(folder: string): SearchTextSource {
  return {
    async shard(dataId, shard) {
      const file = path.join(folder, shardName(dataId, shard))
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as TextShard
      } catch (error) {
        throw new MissingSearchTextError(file, error)
      }
    },
  }
}

export interface OriginTextOptions {
  /**
   * Milliseconds a shard may take, answer and body, before its read fails (the answer then uses
   * the pages' heads). Default 1,500: a CDN read takes tens of ms; a shopper waits no longer.
   */
  timeoutMs?: number
  /** The fetch to use; default the global one. */
  fetchFn?: typeof fetch
}

/**
 * Shards fetched from the site's own origin (`new URL(request.url).origin`), where the deploy
 * publishes them as static files; how the deployed function reads them. A read that fails,
 * answers other than 200 with a JSON object (a password page) or takes longer than `timeoutMs`
 * rejects with MissingSearchTextError.
 */
export function originTextSource(
  origin: string,
  { timeoutMs = 1500, fetchFn = fetch }: OriginTextOptions = {},
): SearchTextSource {
  if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`)
  }
  return {
    async shard(dataId, shard) {
      const url = new URL(`/${shardName(dataId, shard)}`, origin)
      let response: Response | null = null
      try {
        // why: the signal also ends a body that stops half-way
        response = await fetchFn(url, { signal: AbortSignal.timeout(timeoutMs) })
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const body: unknown = await response.json()
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          throw new Error('not a text shard')
        }
        return body as TextShard
      } catch (error) {
        const status = response ? ` (${response.status})` : ''
        throw new MissingSearchTextError(`${url.href}${status}`, error)
      }
    },
  }
}
