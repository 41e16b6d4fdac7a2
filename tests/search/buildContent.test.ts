import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { buildSiteContent } from '../../src/build/siteContent.js'
import {
  ContentDirectoryNotFoundError,
  InvalidContentPageError,
} from '../../src/build/search/contentPages.js'
import { readSearchData } from '../../src/lib/search/index/searchDataFile.js'
import {
  INLINE_TEXT_BYTES,
  SEARCH_TEXT_FOLDER,
  TEXT_HEAD_CHARS,
} from '../../src/lib/search/index/searchText.js'
import { createSiteSearch } from '../../src/lib/search/query/siteSearch.js'
import type { CatalogueProduct } from '../../src/lib/search/siteContentTypes.js'
import type { SiteSearchData } from '../../src/lib/search/index/searchDataReader.js'

const run = promisify(execFile)
const repoRoot = path.resolve(import.meta.dirname, '../..')
const tempDirs: string[] = []

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

async function contentDir(pages: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'content-'))
  tempDirs.push(dir)
  for (const [file, source] of Object.entries(pages)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await writeFile(path.join(dir, file), source)
  }
  return dir
}

function page(frontMatter: string, body = '本文です。'): string {
  return `---\n${frontMatter}\n---\n\n${body}\n`
}

const VALID = 'title: 有効なページ\ndescription: 説明\ntags: [テスト]\ncreatedAt: 2026-01-02'

interface Built {
  productCatalogue: readonly CatalogueProduct[]
  data: SiteSearchData
}

/** Builds into `<dir>/src/generated/` and reads the result as the search function would. */
async function buildInto(dir: string): Promise<Built> {
  const outFile = path.join(dir, 'src/generated/siteContent.ts')
  await buildSiteContent({ contentDir: dir, outFile })
  const generated = await import(outFile)
  return {
    productCatalogue: generated.productCatalogue,
    data: readSearchData(generated.SEARCH_DATA_ID, { from: dir, cwd: dir }),
  }
}

describe('scripts/build-content.ts', () => {
  it('indexes the pages of the given content folder and bakes the product catalogue', async () => {
    const dir = await contentDir({
      'products/teapot-kurokage.md': page(
        'title: 黒影 Kurokage 急須\ndescription: 黒い急須\ntags: [急須]\ncreatedAt: 2026-02-03\nprice: 5500',
        '**黒い**土の[急須](https://example.com)です。 `<script>` は表示だけ。',
      ),
      'news/open.md': page(
        'title: 開店のお知らせ\ndescription: ""\ntags: []\ncreatedAt: "2026-03-04T10:00:00+09:00"',
        '１０時（午前）に開店します ①。',
      ),
      'notes.txt': 'not a page',
    })
    const { productCatalogue, data } = await buildInto(dir)
    expect(productCatalogue).toEqual([
      { slug: 'teapot-kurokage', title: '黒影 Kurokage 急須', path: '/products/teapot-kurokage' },
    ])
    expect(data.page('products/teapot-kurokage')).toMatchObject({
      slug: '/products/teapot-kurokage',
      createdAt: '2026-02-03',
      text: '黒い土の急須です。 <script> は表示だけ。',
      textIsPlain: true,
    })
    expect(data.page('news/open')).toMatchObject({
      createdAt: '2026-03-04T10:00:00+09:00',
      textIsPlain: false,
    })
    expect(data.page('news/missing')).toBeNull()
    const { results } = await createSiteSearch(() => data).search('script', 200)
    expect(results.map((result) => result.id)).toEqual(['products/teapot-kurokage'])
    expect(results[0]!.highlighted_excerpt).toBe(
      '黒い土の急須です。 &lt;<mark>script</mark>&gt; は表示だけ。',
    )
  })

  it('keeps the sample content whole in the data file, and splits texts past the text budget', async () => {
    const answers = []
    for (const inlineTextBytes of [INLINE_TEXT_BYTES, 0]) {
      const dir = await mkdtemp(path.join(tmpdir(), 'content-build-'))
      tempDirs.push(dir)
      const outFile = path.join(dir, 'src/generated/siteContent.ts')
      const contentDir = path.join(repoRoot, 'content')
      const summary = await buildSiteContent({ contentDir, outFile, inlineTextBytes })
      const textFolder = path.join(dir, 'src/generated', SEARCH_TEXT_FOLDER)
      const data = readSearchData((await import(outFile)).SEARCH_DATA_ID, { from: dir, cwd: dir })
      const long = data.page('guides/how-to-preorder')!
      if (inlineTextBytes > 0) {
        // why: under the text budget: no shards, no fetch, whole texts in the function
        expect(summary.textBytes).toBeLessThan(inlineTextBytes)
        expect(summary.textShards).toBe(0)
        expect(existsSync(textFolder)).toBe(false)
        expect(long.textShard).toBeUndefined()
        expect(long.text.length).toBeGreaterThan(TEXT_HEAD_CHARS)
        expect(data.textFolder).toBeNull()
      } else {
        expect(summary.textShards).toBeGreaterThan(0)
        expect(readdirSync(path.join(textFolder, data.dataId))).toHaveLength(summary.textShards)
        expect(long.textShard).toBeTypeOf('number')
        expect(long.text).toHaveLength(TEXT_HEAD_CHARS)
      }
      answers.push(await createSiteSearch(() => data).search('months', 200))
    }
    expect(answers[0]!.results[0]!.highlighted_excerpt).toMatch(/<mark>months<\/mark>/)
    expect(answers[1]).toEqual(answers[0])
  })

  it.each([
    ['YAML syntax error', 'title: [unclosed\ntags: []\ncreatedAt: 2026-01-02', 'not valid YAML'],
    ['missing title', 'description: x\ntags: []\ncreatedAt: 2026-01-02', 'title'],
    ['tags not a list', 'title: x\ntags: 急須\ncreatedAt: 2026-01-02', 'tags'],
    ['missing createdAt', 'title: x\ntags: []', 'createdAt'],
    ['invalid createdAt', 'title: x\ntags: []\ncreatedAt: next tuesday', 'createdAt'],
    ['a url that is no address', `${VALID}\nurl: shop.example/item`, 'url must be an absolute'],
  ])('fails on %s, naming the file', async (_name, frontMatter, problem) => {
    const dir = await contentDir({
      'news/ok.md': page(VALID),
      'guides/broken-page.md': page(frontMatter),
    })
    const build = buildSiteContent({ contentDir: dir, outFile: path.join(dir, 'out.ts') })
    await expect(build).rejects.toThrow(InvalidContentPageError)
    await expect(build).rejects.toThrow(path.join(dir, 'guides/broken-page.md'))
    await expect(build).rejects.toThrow(problem)
  })

  it('bakes a product page’s storefront address (`url:`) into the catalogue', async () => {
    const dir = await contentDir({
      'products/absolute.md': page(`${VALID}\nurl: https://store.example/items/1`),
      'products/relative.md': page(`${VALID}\nurl: /items/2`),
    })
    const { productCatalogue } = await buildInto(dir)
    expect(productCatalogue.map((product) => [product.slug, product.url])).toEqual([
      ['absolute', 'https://store.example/items/1'],
      ['relative', '/items/2'],
    ])
  })

  it('bakes a product’s variants with their own settings; their names find the product', async () => {
    const variants = [
      'variants:',
      '  - {id: ai, name: 藍, sku: SKU-1}',
      '  - {id: shiro, name: 白, sku: SKU-2, reservationLimit: 2}',
    ].join('\n')
    const dir = await contentDir({
      'products/mug.md': page(
        `title: 美濃焼 マグカップ\ntags: []\ncreatedAt: 2026-01-02\n${variants}`,
      ),
      'products/plate.md': page(`${VALID}\nsku: SKU-3`),
    })
    const { productCatalogue, data } = await buildInto(dir)
    expect(productCatalogue.find((product) => product.slug === 'mug')?.variants).toEqual([
      { id: 'ai', name: '藍', sku: 'SKU-1' },
      { id: 'shiro', name: '白', sku: 'SKU-2', reservationLimit: 2 },
    ])
    expect(productCatalogue.find((product) => product.slug === 'plate')).not.toHaveProperty(
      'variants',
    )
    const { results } = await createSiteSearch(() => data).search('藍 マグカップ', 200)
    expect(results.map((result) => result.id)).toEqual(['products/mug'])
  })

  it('rejects variants that repeat an id, a sku of the catalogue, or a bad id', async () => {
    const build = (pages: Record<string, string>) =>
      contentDir(pages).then((dir) =>
        buildSiteContent({ contentDir: dir, outFile: path.join(dir, 'out.ts') }),
      )
    await expect(
      build({ 'products/a.md': page(`${VALID}\nvariants: [{id: x, name: X}, {id: x, name: Y}]`) }),
    ).rejects.toThrow(/a\.md: variant id x is listed twice/)
    await expect(
      build({
        'products/a.md': page(`${VALID}\nvariants: [{id: x, name: X, sku: S-1}]`),
        'products/b.md': page(`${VALID}\nsku: S-1`),
      }),
    ).rejects.toThrow(/sku S-1 is already used by products\/a/)
    await expect(
      build({ 'products/a.md': page(`${VALID}\nvariants: [{id: Ai, name: 藍}]`) }),
    ).rejects.toThrow(/variant id must be lower-case letters/)
  })

  it('rejects a file name that is not a slug', async () => {
    const dir = await contentDir({ 'products/Bad_Name.md': page(VALID) })
    await expect(
      buildSiteContent({ contentDir: dir, outFile: path.join(dir, 'out.ts') }),
    ).rejects.toThrow(/Bad_Name\.md: folder and file names must be lower-case/)
  })

  it('names a missing content folder', async () => {
    const missing = path.join(tmpdir(), 'no-such-content-folder')
    await expect(
      buildSiteContent({ contentDir: missing, outFile: path.join(missing, 'out.ts') }),
    ).rejects.toThrow(ContentDirectoryNotFoundError)
  })

  it('reads CONTENT_DIR and exits non-zero naming the broken file', async () => {
    const dir = await contentDir({
      'blog/broken.md': page('title: ""\ntags: []\ncreatedAt: 2026-01-02'),
    })
    const build = run('npx', ['tsx', 'scripts/build-content.ts'], {
      cwd: repoRoot,
      env: { ...process.env, CONTENT_DIR: dir },
    })
    await expect(build).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `${path.join(dir, 'blog/broken.md')}: invalid front matter field title`,
      ),
    })
  })
})
