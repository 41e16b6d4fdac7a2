import { existsSync } from 'node:fs'
import { SEARCH_TEXT_FOLDER } from './searchText.js'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeSiteSearchData, fileSource, type SiteSearchData } from './searchDataReader.js'

/**
 * Where the build writes the search data, from the project root. netlify.toml ships it with the
 * search function (`[functions.search] included_files`), at the same path inside the function's
 * archive, two folders above the bundle `netlify/functions/search.mjs`.
 */
export const SEARCH_DATA_PATH = 'src/generated/site-search.bin'

/** The search data file is not where the search function looks for it. */
export class MissingSearchDataError extends Error {
  constructor(tried: readonly string[]) {
    super(
      `No search data file at ${tried.join(', ')}. Run \`npm run build\` (it writes ` +
        `${SEARCH_DATA_PATH}), and keep it in netlify.toml's [functions.search] included_files.`,
    )
    this.name = 'MissingSearchDataError'
  }
}

/** The data file beside this deploy's code differs from the one the generated module names. */
export class StaleSearchDataError extends Error {
  constructor(file: string, found: string, expected: string) {
    super(
      `${file} has data id ${found}, but src/generated/siteContent.ts was built with ${expected}. ` +
        'Rebuild both with `npm run build`.',
    )
    this.name = 'StaleSearchDataError'
  }
}

export interface LocateOptions {
  /** Folder to search from, upwards; default the folder of the running code (the bundle). */
  from?: string
  /** Default `process.cwd()`, tried last. */
  cwd?: string
}

/** The path of the search data file: in `from` or a folder above it, else under `cwd`. */
function locateSearchData({
  from = path.dirname(fileURLToPath(import.meta.url)),
  cwd = process.cwd(),
}: LocateOptions = {}): string {
  const tried: string[] = []
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    tried.push(path.join(dir, SEARCH_DATA_PATH))
    if (path.dirname(dir) === dir) break
  }
  tried.push(path.join(path.resolve(cwd), SEARCH_DATA_PATH))
  const found = tried.find((candidate) => existsSync(candidate))
  if (!found) throw new MissingSearchDataError([...new Set(tried)])
  return found
}

/**
 * Opens the search data file (read by range from then on) and checks it is the one
 * `expectedDataId` names.
 */
export function readSearchData(expectedDataId: string, options?: LocateOptions): SiteSearchData {
  const file = locateSearchData(options)
  const source = fileSource(file)
  try {
    const data = decodeSiteSearchData(source)
    if (data.dataId !== expectedDataId) {
      throw new StaleSearchDataError(file, data.dataId, expectedDataId)
    }
    const folder = path.dirname(file)
    // why: shipped beside the data file only where the project is (npm start, tests, bench)
    const textFolder = existsSync(path.join(folder, SEARCH_TEXT_FOLDER)) ? folder : null
    return { ...data, textFolder }
  } catch (error) {
    // why: the next request tries again; an open file per failed try would run out of them
    source.close()
    throw error
  }
}
