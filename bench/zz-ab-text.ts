import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import MiniSearch from 'minisearch'
import { generatedSite } from './bench-search-corpus.js'
import { loadContentPages } from '../src/build/search/contentPages.js'
import { searchDataOf } from '../src/build/siteContent.js'
import { searchOptions, type IndexedPage } from '../src/lib/search/terms/indexOptions.js'
import { SEARCH_INDEX_FORMAT } from '../src/lib/search/terms/indexOptions.js'

const dir = await mkdtemp(path.join(tmpdir(), 'ab-text-'))
const site = generatedSite()
await site.writeCorpus(path.join(dir, 'content'), 2000, () => {})
const pages = await loadContentPages(path.join(dir, 'content'))
const index = new MiniSearch<IndexedPage>(searchOptions)
index.addAll(pages)
const whole = searchDataOf(pages, index, SEARCH_INDEX_FORMAT, Infinity)
const split = searchDataOf(pages, index, SEARCH_INDEX_FORMAT)
await mkdir(path.join(dir, 'A'))
await writeFile(path.join(dir, 'A/site-search.bin'), whole.bytes)
await mkdir(path.join(dir, 'B/search-text', split.dataId), { recursive: true })
await writeFile(path.join(dir, 'B/site-search.bin'), split.bytes)
for (const [n, shard] of split.textShards) {
  await writeFile(path.join(dir, 'B/search-text', split.dataId, `${n}.json`), JSON.stringify(shard))
}
const queries = path.join(dir, 'queries.json')
await writeFile(queries, JSON.stringify(site.benchQueries(200)))
for (let round = 0; round < 3; round++) {
  for (const which of ['A', 'B']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/bench-search-latency.ts', 'answer', path.join(dir, which, 'site-search.bin'), queries])
    console.log(round, which, out.toString().trim(), 'load', (await import('node:os')).loadavg()[0]!.toFixed(1))
  }
}
