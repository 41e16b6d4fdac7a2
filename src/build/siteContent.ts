/**
 * Builds the search data file `src/generated/site-search.bin` (index and pages) and the module
 * `src/generated/siteContent.ts` (product catalogue, data id). Run by `scripts/build-content.ts`
 * (`npm run build`), which reads `CONTENT_DIR` (default `content/`).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import MiniSearch from 'minisearch'
import {
  checkUniqueSkus,
  loadContentPages,
  PRODUCT_CONTENT_TYPE,
  type ContentPage,
} from './search/contentPages.js'
import { SEARCH_DATA_PATH } from '../lib/search/index/searchDataFile.js'
import {
  INLINE_TEXT_BYTES,
  SEARCH_TEXT_FOLDER,
  TEXT_HEAD_CHARS,
} from '../lib/search/index/searchText.js'
import {
  SEARCH_INDEX_FORMAT,
  searchOptions,
  type IndexedPage,
} from '../lib/search/terms/indexOptions.js'
import type { CatalogueProduct } from '../lib/catalogueProduct.js'
import type { StoredPage } from '../lib/search/siteContentTypes.js'
import { encodeSiteSearchData, packIndex } from './search/searchDataWriter.js'
import { suggestDataOf } from './search/suggestDataWriter.js'
import { keyedGroups } from '../lib/search/query/searchAlternatives.js'
import { SPELLING_VARIANTS } from '../lib/search/terms/spellingVariants.js'
import { SUGGEST_DATA_PATH } from '../lib/search/suggest/suggestData.js'
import { parseSynonymFile, SYNONYMS_FILE_NAME } from '../lib/search/synonyms/synonymFile.js'
import type { WordReading } from '../lib/search/index/readingTable.js'
import {
  loadReadingAnalyser,
  pageReadings,
  readingCorrections,
  uniqueReadings,
  type BodyPieceReadings,
  type BodyReading,
  type PageReadings,
  type ReadingAnalyser,
} from './search/wordReadings.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const TYPES_MODULE = path.join(REPO_ROOT, 'src/lib/catalogueProduct.js')

export const DEFAULT_OUT_FILE = path.join(REPO_ROOT, 'src/generated/siteContent.ts')

export interface BuildSiteContentOptions {
  contentDir: string
  /** The module; the data file is written beside it. */
  outFile: string
  /** Index options; the deployed ones unless a comparison passes others. */
  options?: typeof searchOptions
  formatVersion?: string
  /**
   * Whether to serialize MiniSearch's JSON of the index only to report its size (`indexBytes`,
   * else null); default true. why: at 20,000 pages it is ~80 MB and a second `toJSON` of the index
   */
  measureIndexJson?: boolean
  /**
   * Most bytes of page text kept whole in the data file; more, and the build writes heads and
   * text shards (index/searchText.ts). Default INLINE_TEXT_BYTES; tests force a split with 0.
   */
  inlineTextBytes?: number
  /**
   * What of the pages' body text is read for kanji words' readings beside titles, tags and
   * descriptions (docs/search.md, "Readings"); default `okurigana`: the words written with
   * okurigana only.
   */
  readBody?: BodyReading
  /** The Japanese analyser; default kuromoji with its dictionary, loaded for this build. */
  analyser?: Promise<ReadingAnalyser>
  /** Called as the build goes: pages read, pages indexed (of `total`), and when it writes. */
  onProgress?: (
    stage: 'reading' | 'indexing' | 'readings' | 'writing',
    done: number,
    total: number,
  ) => void
}

export interface BuildSiteContentSummary {
  outFile: string
  dataFile: string
  pages: number
  products: number
  /** MiniSearch's JSON of the index (for comparison; the data file holds it packed). */
  indexBytes: number | null
  /** Size of the generated module. */
  moduleBytes: number
  /** Size of the search data file. */
  dataBytes: number
  /** Of which read whole at the first search (header and eager sections). */
  eagerBytes: number
  /** Bytes of page text (UTF-8), compared with `inlineTextBytes`. */
  textBytes: number
  /** Text shards written (0: every text whole in the data file). */
  textShards: number
  /** Kanji words with their readings stored (word and reading pairs). */
  readings: number
  /** Of `milliseconds`, reading the kanji words (the analyser's load included). */
  readingMilliseconds: number
  milliseconds: number
}

export async function buildSiteContent({
  contentDir,
  outFile,
  options = searchOptions,
  formatVersion = SEARCH_INDEX_FORMAT,
  measureIndexJson = true,
  inlineTextBytes = INLINE_TEXT_BYTES,
  readBody = 'okurigana',
  analyser,
  onProgress = () => {},
}: BuildSiteContentOptions): Promise<BuildSiteContentSummary> {
  const started = performance.now()
  const pages = await loadContentPages(contentDir, (read) => {
    if (read % 500 === 0) onProgress('reading', read, Number.NaN)
  })
  checkUniqueSkus(pages)
  const readingStarted = performance.now()
  const corrections = readingCorrections(pages)
  const analyse = await (analyser ?? loadReadingAnalyser())
  const readingsByPage = new Map<string, PageReadings>()
  const bodyPieces: BodyPieceReadings = new Map()
  for (const page of pages) {
    if (readingsByPage.size % 500 === 0) onProgress('readings', readingsByPage.size, pages.length)
    readingsByPage.set(page.id, pageReadings(analyse, page, corrections, readBody, bodyPieces))
  }
  const readings = uniqueReadings(
    [...readingsByPage.values()].flatMap(({ title, tags, rest }) => [
      ...title,
      ...tags.flat(),
      ...rest,
    ]),
  )
  const readingMilliseconds = performance.now() - readingStarted
  const index = new MiniSearch<IndexedPage>(options)
  for (let done = 0; done < pages.length; done += 500) {
    onProgress('indexing', done, pages.length)
    index.addAll(pages.slice(done, done + 500))
  }
  onProgress('writing', 0, 1)
  const indexBytes = measureIndexJson ? Buffer.byteLength(JSON.stringify(index)) : null
  const textBytes = pages.reduce((sum, page) => sum + Buffer.byteLength(storedText(page)), 0)
  // why: shards only when the whole text would make the function too large
  const headChars = textBytes > inlineTextBytes ? TEXT_HEAD_CHARS : Infinity
  const { bytes, dataId, eagerBytes, textShards } = searchDataOf(
    pages,
    index,
    formatVersion,
    headChars,
    readings,
  )
  const synonyms = await readSynonymFile(contentDir)
  const suggestData = suggestDataOf(pages, dataId, PRODUCT_CONTENT_TYPE, readingsByPage)
  const productCatalogue: CatalogueProduct[] = pages
    .filter((page) => page.contentType === PRODUCT_CONTENT_TYPE)
    .map((page) => ({
      slug: page.fileSlug,
      title: page.title,
      path: page.slug,
      ...page.preorder,
      ...(page.sku ? { sku: page.sku } : {}),
      ...(page.url ? { url: page.url } : {}),
      ...(page.image ? { image: page.image } : {}),
      ...(page.variants ? { variants: page.variants } : {}),
    }))

  let typesImport = path.relative(path.dirname(outFile), TYPES_MODULE).split(path.sep).join('/')
  if (!typesImport.startsWith('.')) typesImport = `./${typesImport}`
  const source = [
    `// Generated by scripts/build-content.ts from ${path.relative(REPO_ROOT, contentDir) || '.'}; do not edit.`,
    `// Rebuild with \`tsx scripts/build-content.ts\` (npm run build).`,
    `import type { CatalogueProduct } from '${typesImport}'`,
    '',
    `/** Names the search data file (${SEARCH_DATA_PATH}) written by the same build. */`,
    `export const SEARCH_DATA_ID = ${JSON.stringify(dataId)}`,
    '',
    `export const productCatalogue: readonly CatalogueProduct[] = ${JSON.stringify(productCatalogue, null, 2)}`,
    '',
    `/** The groups of ${SYNONYMS_FILE_NAME} in the content folder (docs/search.md, "Synonyms"). */`,
    `export const searchSynonyms: readonly (readonly string[])[] = ${JSON.stringify(synonyms)}`,
    '',
    `/** The okurigana variants (src/lib/search/terms/spellingVariants.ts), then those synonyms, each word with its spelling key. */`,
    `export const searchWordGroups: readonly (readonly (readonly [string, string])[])[] = ${JSON.stringify(keyedGroups([...SPELLING_VARIANTS, ...synonyms]))}`,
    '',
  ].join('\n')
  const dataFile = path.join(path.dirname(outFile), path.basename(SEARCH_DATA_PATH))
  await mkdir(path.dirname(outFile), { recursive: true })
  await writeFile(dataFile, bytes)
  // why: the shards of earlier builds are other data ids' text; never left to be published
  const textFolder = path.join(path.dirname(outFile), SEARCH_TEXT_FOLDER)
  await rm(textFolder, { recursive: true, force: true })
  if (textShards.size > 0) await mkdir(path.join(textFolder, dataId), { recursive: true })
  for (const [n, shard] of textShards) {
    await writeFile(path.join(textFolder, dataId, `${n}.json`), JSON.stringify(shard))
  }
  await writeFile(
    path.join(path.dirname(outFile), path.basename(SUGGEST_DATA_PATH)),
    JSON.stringify(suggestData),
  )
  await writeFile(outFile, source)
  return {
    outFile,
    dataFile,
    pages: pages.length,
    products: productCatalogue.length,
    indexBytes,
    moduleBytes: Buffer.byteLength(source),
    dataBytes: bytes.length,
    eagerBytes,
    textBytes,
    textShards: textShards.size,
    readings: readings.length,
    readingMilliseconds,
    milliseconds: performance.now() - started,
  }
}

/** The groups of the content folder's synonyms file; none when there is no such file. */
async function readSynonymFile(contentDir: string): Promise<string[][]> {
  const file = path.join(contentDir, SYNONYMS_FILE_NAME)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return parseSynonymFile(text, path.relative(process.cwd(), file))
}

/** A page's text as the data file stores it. */
function storedText({ text }: Pick<ContentPage, 'text'>): string {
  // why: excerpts are single-line plain text; collapsing here saves it on every search
  return text.replace(/\s+/g, ' ')
}

/**
 * The search data file's bytes for `pages` indexed in `index`, and its text shards; `headChars`:
 * as encodeSiteSearchData's (default `Infinity`: every text whole, no shards); `readings`: the
 * site's kanji words' readings (default none).
 */
export function searchDataOf(
  pages: readonly ContentPage[],
  index: MiniSearch<IndexedPage>,
  formatVersion: string,
  headChars = Infinity,
  readings: readonly WordReading[] = [],
): ReturnType<typeof encodeSiteSearchData> {
  const storedPages = pages.map(
    ({ id, slug, title, description, tags, createdAt, text }): StoredPage => ({
      id,
      slug,
      title,
      description,
      tags,
      createdAt,
      text: storedText({ text }),
    }),
  )
  return encodeSiteSearchData(
    formatVersion,
    packIndex(index.toJSON()),
    storedPages,
    headChars,
    readings,
  )
}
