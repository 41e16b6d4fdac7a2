import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the build writes the completions (titles and tags) from the project root. netlify.toml
 * ships it with the suggest function (`[functions.search-suggest] included_files`).
 */
export const SUGGEST_DATA_PATH = 'src/generated/search-suggest.json'

/** What a completion completes to. */
export type SuggestionKind = 'title' | 'tag'

/**
 * The completions, sorted by `keys` (each a spelling key, searchAlternatives.ts): entry n
 * completes `keys[n]` to `texts[n]`, a page title (its `slugs[n]`) or a tag (`slugs[n]` null),
 * `weights[n]` orders entries of one prefix (higher first).
 */
export interface SuggestData {
  dataId: string
  keys: string[]
  texts: string[]
  kinds: SuggestionKind[]
  slugs: (string | null)[]
  weights: number[]
  /**
   * Reading keys (terms/readingKey.ts) of the kanji words of titles and tags, sorted; entry n of
   * the completions above is `readingEntries[i]` for `readingKeys[i]`.
   */
  readingKeys: string[]
  readingEntries: number[]
}

/** The completions file is missing; the build writes it. */
export class MissingSuggestDataError extends Error {
  override name = 'MissingSuggestDataError'
  constructor(tried: readonly string[]) {
    super(
      `No completions file at ${tried.join(', ')}. Run \`npm run build\` (it writes ` +
        `${SUGGEST_DATA_PATH}), and keep it in netlify.toml's [functions.search-suggest] included_files.`,
    )
  }
}

/** Reads the completions file, looking upwards from the running code, then under `cwd`. */
export function readSuggestData(
  from = path.dirname(fileURLToPath(import.meta.url)),
  cwd = process.cwd(),
): SuggestData {
  const tried: string[] = []
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    tried.push(path.join(dir, SUGGEST_DATA_PATH))
    if (path.dirname(dir) === dir) break
  }
  tried.push(path.join(path.resolve(cwd), SUGGEST_DATA_PATH))
  const found = tried.find((candidate) => existsSync(candidate))
  if (!found) throw new MissingSuggestDataError([...new Set(tried)])
  return JSON.parse(readFileSync(found, 'utf8')) as SuggestData
}
