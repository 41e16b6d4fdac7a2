/**
 * `npm run build`, step 2: the search data file and the catalogue module from `CONTENT_DIR`
 * (default `content/`); the work is `buildSiteContent` in src/build/siteContent.ts.
 * Run: `tsx scripts/build-content.ts`.
 */
import { cp, rm } from 'node:fs/promises'
import path from 'node:path'
import { buildSiteContent, DEFAULT_OUT_FILE } from '../src/build/siteContent.js'
import { SEARCH_TEXT_FOLDER } from '../src/lib/search/index/searchText.js'

// why: published with the site, where the deployed search function fetches them (the shards stay
// out of its package); `npm start` and tests read them from src/generated
const PUBLISHED_TEXT = path.join('public', SEARCH_TEXT_FOLDER)

async function main(): Promise<void> {
  const contentDir = path.resolve(process.env.CONTENT_DIR || 'content')
  try {
    const summary = await buildSiteContent({ contentDir, outFile: DEFAULT_OUT_FILE })
    await rm(PUBLISHED_TEXT, { recursive: true, force: true })
    if (summary.textShards > 0) {
      await cp(path.join(path.dirname(summary.dataFile), SEARCH_TEXT_FOLDER), PUBLISHED_TEXT, {
        recursive: true,
      })
    }
    console.log(
      `build-content: ${summary.pages} pages (${summary.products} products), index ` +
        `${((summary.indexBytes ?? 0) / 1024).toFixed(1)} KB, data file ` +
        `${(summary.dataBytes / 1024).toFixed(1)} KB, ` +
        (summary.textShards > 0
          ? `text past page heads in ${summary.textShards} shards (${PUBLISHED_TEXT}), `
          : '') +
        `${summary.milliseconds.toFixed(0)} ms → ` +
        `${path.relative(process.cwd(), summary.dataFile)}, ${path.relative(process.cwd(), summary.outFile)}`,
    )
  } catch (error) {
    console.error(`build-content: ${(error as Error).message}`)
    process.exitCode = 1
  }
}

await main()
