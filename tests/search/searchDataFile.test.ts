import { readdirSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSiteContent } from '../../src/build/siteContent.js'
import {
  MissingSearchDataError,
  readSearchData,
  SEARCH_DATA_PATH,
  StaleSearchDataError,
} from '../../src/lib/search/index/searchDataFile.js'
import { createSiteSearch, StaleSiteContentError } from '../../src/lib/search/query/siteSearch.js'
import {
  decodeSiteSearchData,
  fileSource,
  InvalidSearchDataError,
} from '../../src/lib/search/index/searchDataReader.js'
import { encodeSiteSearchData, packIndex } from '../../src/build/search/searchDataWriter.js'
import { searchDataInMemory } from '../../bench/searchDataInMemory.js'
import MiniSearch from 'minisearch'
import {
  SEARCH_INDEX_FORMAT,
  searchOptions,
  type IndexedPage,
} from '../../src/lib/search/terms/indexOptions.js'

const tempDirs: string[] = []
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-data-'))
  tempDirs.push(dir)
  return dir
}

/** `pages` indexed and written as a search data file; its bytes and the file. */
async function writtenData(
  pages: Array<IndexedPage & { slug: string; createdAt: string }>,
): Promise<{ bytes: Buffer; file: string }> {
  const index = new MiniSearch<IndexedPage>(searchOptions)
  index.addAll(pages)
  const { bytes } = encodeSiteSearchData(SEARCH_INDEX_FORMAT, packIndex(index.toJSON()), pages)
  const file = path.join(await tempDir(), 'site-search.bin')
  await writeFile(file, bytes)
  return { bytes, file }
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
    const fromBundle = readSearchData(dataId, { from: bundleDir, cwd: tmpdir() })
    expect(fromBundle.dataId).toBe(dataId)
    fromBundle.close()
    const search = createSiteSearch(() => readSearchData(dataId, { from: bundleDir, cwd: '/' }))
    expect((await search.search('入荷', 200)).results.map((result) => result.id)).toEqual([
      'news/page',
    ])
  })

  it('falls back to the working folder, and otherwise names every place it looked', async () => {
    const root = await tempDir()
    const { dataId } = await buildSite(root, '入荷のお知らせ')
    const elsewhere = await tempDir()
    const fromCwd = readSearchData(dataId, { from: elsewhere, cwd: root })
    expect(fromCwd.dataId).toBe(dataId)
    fromCwd.close()
    const locate = () =>
      readSearchData(dataId, { from: path.join(elsewhere, 'a/b'), cwd: elsewhere })
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

  it('refuses data of another index format, damaged, cut short or too long', async () => {
    const index = new MiniSearch<IndexedPage>(searchOptions)
    index.add({ id: 'news/a', title: '入荷', description: '', tags: [], text: '' })
    const page = { id: 'news/a', slug: '/news/a', title: '入荷', description: '', tags: [] }
    const stored = [{ ...page, createdAt: '2026-01-02', text: '本文'.repeat(100) }]
    const { bytes } = encodeSiteSearchData('0-old', packIndex(index.toJSON()), stored)
    const decode = (damaged: Uint8Array) => () => searchDataInMemory(damaged)
    // why: the writer marks text excerpts can search without normalising it (isPlainText)
    expect(decode(bytes)().page('news/a')).toEqual({ ...stored[0], textIsPlain: true })
    const old = createSiteSearch(() => searchDataInMemory(bytes))
    await expect(old.search('入荷', 200)).rejects.toThrow(StaleSiteContentError)

    const noSignature = Buffer.from(bytes)
    noSignature.write('NOTSHOP!', 0, 'latin1')
    expect(decode(noSignature)).toThrow('does not start with its signature')
    const badHeader = Buffer.from(bytes)
    badHeader.write('{', 13, 'latin1')
    expect(decode(badHeader)).toThrow('has a damaged header')
    // why: cut inside the pages, which a cold start does not read, is still caught at once
    expect(decode(bytes.subarray(0, bytes.length - 64))).toThrow('is cut short')
    expect(decode(Buffer.concat([bytes, Buffer.alloc(8)]))).toThrow('is too long')
    for (const damaged of [noSignature, badHeader]) {
      expect(decode(damaged)).toThrow(InvalidSearchDataError)
    }

    // why: postings are varints (postingsCoding.ts); one running past its term's bytes is caught
    // when a query reads the term
    const headerLength = Buffer.from(bytes).readUInt32LE(8)
    const header = JSON.parse(Buffer.from(bytes).toString('utf8', 12, 12 + headerLength))
    const [offset, length] = header.sections.postings as [number, number]
    const badPostings = Buffer.from(bytes)
    badPostings[Math.ceil((12 + headerLength) / 8) * 8 + offset + length - 1] = 0x80
    // why: the term tree is read subtree by subtree when a walk enters one; a damaged one is
    // caught then (here its last node's end: the fuzzy walk of a Latin word reads the whole tree)
    const [treeOffset, treeLength] = header.sections.nodeEntryStart as [number, number]
    const badTree = Buffer.from(bytes)
    const treeEnd = Math.ceil((12 + headerLength) / 8) * 8 + treeOffset + treeLength
    badTree.writeUInt32LE(0xffffff, treeEnd - 4)
    const damagedTree = createSiteSearch(() => searchDataInMemory(badTree), {
      formatVersion: '0-old',
    })
    await expect(damagedTree.search('nyuka', 200)).rejects.toThrow('has a damaged term tree')
    const { index: damagedIndex } = decode(badPostings)()
    const [from, to] = damagedIndex.termPostingsStart
    expect(() => damagedIndex.postings(from!, to!)).toThrow('has damaged postings')
    expect(decode(bytes)().index.postings(from!, to!)).toEqual(
      Uint32Array.from([Number(header.common.fieldIds.title), 1, 0, 1]),
    )
  })

  it('closes the file when it cannot be used, so retries do not run out of files', async () => {
    const root = await tempDir()
    const { dataId } = await buildSite(root, '入荷のお知らせ')
    const openFiles = () => readdirSync('/proc/self/fd').length
    const before = openFiles()
    const stale = createSiteSearch(() => readSearchData('0000000000000000', { from: root }))
    const otherFormat = createSiteSearch(() => readSearchData(dataId, { from: root }), {
      formatVersion: '0-old',
    })
    for (let attempt = 0; attempt < 20; attempt++) {
      await expect(stale.search('入荷', 200)).rejects.toThrow(StaleSearchDataError)
      await expect(otherFormat.search('入荷', 200)).rejects.toThrow(StaleSiteContentError)
    }
    expect(openFiles()).toBe(before)
  })

  it('packs only an index without discarded documents', () => {
    const index = new MiniSearch<IndexedPage>({ ...searchOptions, autoVacuum: false })
    index.add({ id: 'news/a', title: '入荷', description: '', tags: [], text: '' })
    index.add({ id: 'news/b', title: '再入荷', description: '', tags: [], text: '' })
    index.discard('news/a')
    expect(() => packIndex(index.toJSON())).toThrow('vacuum() it first')
  })

  it("reads every term's postings from the file, block by block, as from memory", async () => {
    // why: enough pages and words that the postings span many blocks and lists cross their ends
    let state = 5
    const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`)
    const pages = Array.from({ length: 400 }, (_, i) => ({
      id: `blog/p${i}`,
      slug: `/blog/p${i}`,
      title: `page ${i}`,
      description: '',
      tags: [],
      createdAt: '2026-11-24',
      text: Array.from({ length: 200 }, () => words[Math.floor(random() ** 2 * words.length)]).join(
        ' ',
      ),
    }))
    const { bytes, file } = await writtenData(pages)
    const fromFile = decodeSiteSearchData(fileSource(file))
    const fromMemory = searchDataInMemory(bytes)
    try {
      const starts = fromMemory.index.termPostingsStart
      expect(starts[starts.length - 1]).toBeGreaterThan(100_000)
      // why: backwards and forwards, as prefix expansions and fuzzy matches reach them
      const terms = Array.from({ length: starts.length - 1 }, (_, t) => t)
      for (const t of [...terms].reverse().concat(terms)) {
        const range = [starts[t]!, starts[t + 1]!] as const
        expect(fromFile.index.postings(...range), `term ${t}`).toEqual(
          fromMemory.index.postings(...range),
        )
      }
    } finally {
      fromFile.close()
    }
  })

  it("reads pages' ids from the file by blocks, as from memory", async () => {
    // why: ids long and many enough to span several blocks, some crossing a block's end
    const pages = Array.from({ length: 3000 }, (_, i) => ({
      id: `blog/a-page-with-a-rather-long-file-name-${i}`,
      slug: `/blog/p${i}`,
      title: `page ${i}`,
      description: '',
      tags: [],
      createdAt: '2026-11-24',
      // why: pages read one after another through one buffer, a long one among short ones
      text: i === 5 ? 'a longer text '.repeat(500) : `word${i % 7}`,
    }))
    const { bytes, file } = await writtenData(pages)
    const source = fileSource(file)
    let reads = 0
    const fromFile = decodeSiteSearchData({
      ...source,
      read: (offset, length) => (reads++, source.read(offset, length)),
    })
    const fromMemory = searchDataInMemory(bytes)
    try {
      const shortIds = Array.from({ length: pages.length }, (_, shortId) => shortId)
      const before = reads
      for (const shortId of [...shortIds].reverse().concat(shortIds)) {
        expect(fromFile.index.documentId(shortId), `${shortId}`).toBe(
          fromMemory.index.documentId(shortId),
        )
      }
      // why: 3,000 ids of ~45 UTF-16 units are ~17 blocks of 16 KB, read once each, and the ids
      // crossing a block's end (a read each), not a read per id
      expect(reads - before).toBeLessThan(40)
      expect(fromFile.page(pages[2999]!.id)?.title).toBe('page 2999')
      for (const i of [5, 17, 5, 2998]) {
        expect(fromFile.page(pages[i]!.id), `${i}`).toEqual(fromMemory.page(pages[i]!.id))
        expect(fromFile.page(pages[i]!.id)?.text).toBe(pages[i]!.text)
      }
    } finally {
      fromFile.close()
    }
  })

  it("stores a page's text after its fields, and reads the page back as written", () => {
    const index = new MiniSearch<IndexedPage>(searchOptions)
    index.add({ id: 'news/a', title: '入荷', description: '', tags: [], text: '' })
    const stored = {
      id: 'news/a',
      slug: '/news/a',
      title: '入荷 "quoted" \\ ',
      description: '説明',
      tags: ['お知らせ'],
      createdAt: '2026-01-02',
      text: '本文 "quoted" \\ 😀 ｺｰﾋｰ\n'.repeat(50),
    }
    const { bytes } = encodeSiteSearchData('test', packIndex(index.toJSON()), [stored])
    const page = searchDataInMemory(bytes).page('news/a')
    expect(page).toEqual({ ...stored, textIsPlain: false, textNotPlain: expect.any(String) })
    // why: the text is set back in its place among the fields (answers list pages as written)
    expect(Object.keys(page!)).toEqual([...Object.keys(stored), 'textIsPlain', 'textNotPlain'])

    // why: a length of the fields past the page's end is a damaged page, caught when it is read
    const headerLength = Buffer.from(bytes).readUInt32LE(8)
    const header = JSON.parse(Buffer.from(bytes).toString('utf8', 12, 12 + headerLength))
    const damaged = Buffer.from(bytes)
    damaged.writeUInt32LE(
      0xffffff,
      Math.ceil((12 + headerLength) / 8) * 8 + header.sections.pages[0],
    )
    expect(() => searchDataInMemory(damaged).page('news/a')).toThrow('has a damaged page news/a')
  })

  it('stores postings two terms share once, and reads them for both', () => {
    // why: the bigrams of a word always written whole have the same postings
    const pages = Array.from({ length: 40 }, (_, i) => ({
      id: `blog/p${i}`,
      slug: `/blog/p${i}`,
      title: `ドリッパー ${i}`,
      description: '',
      tags: [],
      createdAt: '2026-11-24',
      text: 'ドリッパーで淹れる',
    }))
    const index = new MiniSearch<IndexedPage>(searchOptions)
    index.addAll(pages)
    const parts = packIndex(index.toJSON())
    const data = searchDataInMemory(encodeSiteSearchData(SEARCH_INDEX_FORMAT, parts, pages).bytes)
    const starts = data.index.termPostingsStart
    let aliases = 0
    for (let t = 0; t + 1 < starts.length; t++) {
      const read = data.index.postings(starts[t]!, starts[t + 1]!)
      const [from, to] = [parts.termPostingsStart[t]!, parts.termPostingsStart[t + 1]!]
      expect(read, `term ${t}`).toEqual(parts.postings(from, to))
      // why: 40 pages' postings take over 100 bytes; an alias two
      if (read.length > 80 && starts[t + 1]! - starts[t]! <= 4) aliases++
    }
    expect(aliases).toBeGreaterThanOrEqual(2)
  })

  it('reads by range from the file what it reads from memory', async () => {
    const root = await tempDir()
    const { file } = await buildSite(root, 'Tokoname 急須の入荷')
    const fromFile = createSiteSearch(() => decodeSiteSearchData(fileSource(file)))
    const bytes = await readFile(file)
    // why: an odd start in memory must still give aligned typed arrays
    const shifted = new Uint8Array(bytes.length + 1).subarray(1)
    shifted.set(bytes)
    const fromMemory = createSiteSearch(() => searchDataInMemory(shifted))
    for (const query of ['入荷', 'tokoname', 'toko', 'tokonama', '急須 入荷']) {
      const answer = await fromFile.search(query, 200)
      expect(answer, query).toEqual(await fromMemory.search(query, 200))
      expect(answer.totalResults, query).toBe(1)
    }
  })
})
