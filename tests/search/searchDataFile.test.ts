import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSiteContent } from '../../scripts/build-content.js'
import {
  locateSearchData,
  MissingSearchDataError,
  readSearchData,
  SEARCH_DATA_PATH,
  StaleSearchDataError,
} from '../../src/lib/search/searchDataFile.js'
import { createSiteSearch, StaleSiteContentError } from '../../src/lib/search/siteSearch.js'
import {
  bytesSource,
  decodeSiteSearchData,
  fileSource,
  InvalidSearchDataError,
} from '../../src/lib/search/siteSearchData.js'
import { encodeSiteSearchData, packIndex } from '../../src/lib/search/searchDataWriter.js'
import MiniSearch from 'minisearch'
import { searchOptions, type IndexedPage } from '../../src/lib/search/searchOptions.js'

const tempDirs: string[] = []
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-data-'))
  tempDirs.push(dir)
  return dir
}

/** A site with one page whose title is `title`, built into `<root>/src/generated/`. */
async function buildSite(root: string, title: string): Promise<{ dataId: string; file: string }> {
  const content = path.join(root, 'content')
  await mkdir(path.join(content, 'news'), { recursive: true })
  await writeFile(
    path.join(content, 'news/page.md'),
    `---\ntitle: ${title}\ndescription: 説明\ntags: [お知らせ]\ncreatedAt: 2026-01-02\n---\n\n本文です。\n`,
  )
  const outFile = path.join(root, 'src/generated/siteContent.ts')
  const summary = await buildSiteContent({ contentDir: content, outFile })
  const source = await readFile(outFile, 'utf8')
  return { dataId: /SEARCH_DATA_ID = "(\w+)"/.exec(source)![1]!, file: summary.dataFile }
}

describe('search data file', () => {
  it('is found from the bundle folder upwards, as netlify/functions/ sits in the archive', async () => {
    const root = await tempDir()
    const { dataId, file } = await buildSite(root, '入荷のお知らせ')
    expect(file).toBe(path.join(root, SEARCH_DATA_PATH))
    const bundleDir = path.join(root, 'netlify/functions')
    expect(locateSearchData({ from: bundleDir, cwd: tmpdir() })).toBe(file)
    const search = createSiteSearch(() => readSearchData(dataId, { from: bundleDir, cwd: '/' }))
    expect(search.search('入荷', 200).results.map((result) => result.id)).toEqual(['news/page'])
  })

  it('falls back to the working folder, and otherwise names every place it looked', async () => {
    const root = await tempDir()
    const { file } = await buildSite(root, '入荷のお知らせ')
    const elsewhere = await tempDir()
    expect(locateSearchData({ from: elsewhere, cwd: root })).toBe(file)
    const locate = () => locateSearchData({ from: path.join(elsewhere, 'a/b'), cwd: elsewhere })
    expect(locate).toThrow(MissingSearchDataError)
    expect(locate).toThrow(path.join(elsewhere, 'a/b', SEARCH_DATA_PATH))
    expect(locate).toThrow('npm run build')
  })

  it('refuses a data file from another build than the generated module', async () => {
    const root = await tempDir()
    const first = await buildSite(root, '最初の版')
    const second = await buildSite(root, '次の版')
    expect(second.dataId).not.toBe(first.dataId)
    const read = () => readSearchData(first.dataId, { from: root })
    expect(read).toThrow(StaleSearchDataError)
    expect(read).toThrow(`${second.file} has data id ${second.dataId}`)
  })

  it('refuses data of another index format, damaged or cut short', async () => {
    const index = new MiniSearch<IndexedPage>(searchOptions)
    index.add({ id: 'news/a', title: '入荷', description: '', tags: [], text: '' })
    const { bytes } = encodeSiteSearchData('0-old', packIndex(index.toJSON()), [])
    const old = createSiteSearch(() => decodeSiteSearchData(bytesSource(bytes)))
    expect(() => old.search('入荷', 200)).toThrow(StaleSiteContentError)
    const damaged = Buffer.from(bytes)
    damaged.write('NOTSHOP!', 0, 'latin1')
    expect(() => decodeSiteSearchData(bytesSource(damaged))).toThrow(InvalidSearchDataError)
    const cut = bytes.subarray(0, bytes.length - 64)
    expect(() => decodeSiteSearchData(bytesSource(cut))).toThrow('is cut short')
  })

  it('reads by range from the file what it reads from memory', async () => {
    const root = await tempDir()
    const { file } = await buildSite(root, 'Tokoname 急須の入荷')
    const fromFile = createSiteSearch(() => decodeSiteSearchData(fileSource(file)))
    const bytes = await readFile(file)
    // why: an odd start in memory must still give aligned typed arrays
    const shifted = new Uint8Array(bytes.length + 1).subarray(1)
    shifted.set(bytes)
    const fromMemory = createSiteSearch(() => decodeSiteSearchData(bytesSource(shifted)))
    for (const query of ['入荷', 'tokoname', 'toko', 'tokonama', '急須 入荷']) {
      expect(fromFile.search(query, 200), query).toEqual(fromMemory.search(query, 200))
      expect(fromFile.search(query, 200).totalResults, query).toBe(1)
    }
  })
})
