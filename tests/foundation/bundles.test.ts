import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { resolveConfig } from '@netlify/config'
import { zipFunction } from '@netlify/zip-it-and-ship-it'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { SEARCH_DATA_PATH } from '../../src/lib/search/index/searchDataFile.js'
import { SEARCH_TEXT_FOLDER } from '../../src/lib/search/index/searchText.js'
import { buildSiteContent } from '../../src/build/siteContent.js'
import { packageSearchFunction, projectWithGenerated } from '../../bench/bench-search-package.js'

const run = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const tempDirs: string[] = []
afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/** The function as Netlify's esbuild bundler would produce it (in memory). */
async function bundle(entry: string): Promise<string> {
  return (await bundleWithInputs(entry)).code
}

/** The bundle's code and the project-relative paths of every file that went into it. */
async function bundleWithInputs(entry: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [path.join(repoRoot, 'netlify/functions', entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: repoRoot,
  })
  return { code: result.outputFiles[0].text, inputs: Object.keys(result.metafile.inputs) }
}

/**
 * The function packaged as a Netlify build packages it: netlify.toml read by Netlify's own
 * config reader, the function zipped by zip-it-and-ship-it (unzipped here: archiveFormat none).
 */
async function packageFunction(name: string): Promise<string> {
  const { config } = await resolveConfig({ repositoryRoot: repoRoot, cwd: repoRoot, offline: true })
  const own = { ...config.functions?.['*'], ...config.functions?.[name] }
  const out = await mkdtemp(path.join(tmpdir(), 'packaged-'))
  tempDirs.push(out)
  await zipFunction(path.join(repoRoot, 'netlify/functions', `${name}.ts`), out, {
    archiveFormat: 'none',
    basePath: repoRoot,
    repositoryRoot: repoRoot,
    // why: Netlify's build hands zip-it-and-ship-it the config with camel-cased keys
    config: { '*': { nodeBundler: own.node_bundler, includedFiles: own.included_files } },
  })
  return path.join(out, name)
}

/**
 * Answers of a packaged search function to `queries`, asked at `origin`, in another process whose
 * working folder is not the project, as on a Netlify server; and what it logged.
 */
async function askPackaged(
  packaged: string,
  origin: string,
  queries: string[],
): Promise<{ answers: { status: number; body: any }[]; stderr: string }> {
  const entry = path.join(packaged, 'netlify/functions/search.mjs')
  expect(existsSync(entry)).toBe(true)
  const script =
    `const { default: handler } = await import(${JSON.stringify(pathToFileURL(entry).href)});` +
    `const answers = [];` +
    `for (const q of ${JSON.stringify(queries)}) {` +
    ` const response = await handler(new Request(${JSON.stringify(origin)} + '/api/search?q=' + encodeURIComponent(q)),` +
    ` { requestId: 'packaged', deploy: { context: 'dev' }, waitUntil() {} });` +
    ` answers.push({ status: response.status, body: await response.json() }) }` +
    `console.log(JSON.stringify(answers))`
  const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: tmpdir(),
  })
  return { answers: JSON.parse(stdout.trim().split('\n').pop()!), stderr }
}

// why: a page id in a bundle means page content is compiled at that function's cold start
const PAGE_ID = '"news/yoyaku-shohin-nyuka"'

describe('function bundles', () => {
  it('leave the search content out of every bundle, and keep the catalogue in the forms', async () => {
    const { code: search, inputs } = await bundleWithInputs('search.ts')
    expect(search).not.toContain(PAGE_ID)
    expect(inputs).toContain('src/lib/search/query/searchService.ts')
    // why: the search reads the index packed by the build; MiniSearch, the build's code and the
    // tokenizers it was compared with stay out of the function
    expect(inputs.filter((input) => input.includes('node_modules/minisearch/'))).toEqual([])
    expect(
      inputs.filter((input) => input.startsWith('src/build/') || input.startsWith('bench/')),
    ).toEqual([])
    expect(search).not.toContain('Intl.Segmenter')
    // why: the readings are read at build time; the analyser and its dictionary stay out
    expect(inputs.filter((input) => input.includes('node_modules/kuromoji/'))).toEqual([])
    expect(search).not.toContain('kuromoji')
    // why: one character past ASCII (esbuild keeps them in comments inside expressions and in
    // regular expressions) makes V8 read the whole bundle as two-byte text, ~0.3 ms of its cold start
    expect([...search].filter((char) => char.charCodeAt(0) > 0x7f)).toEqual([])
    for (const entry of ['reservation.ts', 'notify-signup.ts', 'notify-unsubscribe.ts']) {
      const code = await bundle(entry)
      expect(code).toContain('"chasen-takayama"')
      expect(code).not.toContain(PAGE_ID)
    }
  }, 60_000)

  it('ship the search data file with the search function, which finds it where deployed', async () => {
    const packaged = await packageFunction('search')
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(true)
    // why: kuromoji's dictionary (~18 MB) is the build's alone
    const files = await readdir(packaged, { recursive: true })
    expect(files.filter((file) => /kuromoji|\.dat\.gz$/.test(file))).toEqual([])
    // why: the sample content is under the text budget: every text whole in the function
    const generated = path.dirname(path.join(packaged, SEARCH_DATA_PATH))
    expect(existsSync(path.join(generated, SEARCH_TEXT_FOLDER))).toBe(false)
    // why: `months` ends a page past its first 512 characters; the origin does not exist, so a
    // fetch would fail and the excerpt would come from the page's head
    const { answers, stderr } = await askPackaged(packaged, 'http://shop.invalid', [
      '入荷',
      'months',
    ])
    const [answer, tail] = answers
    expect(answer.status).toBe(200)
    expect(answer.body.results.map((result: { id: string }) => result.id)).toContain(
      'news/yoyaku-shohin-nyuka',
    )
    expect(answer.body.results[0].highlighted_title).toContain('<mark>入荷</mark>')
    expect(tail.status).toBe(200)
    expect(tail.body.results[0].highlighted_excerpt).toContain('<mark>months</mark>')
    expect(stderr).not.toContain('search.text_unavailable')
  }, 120_000)

  it('ship a split search function without its text, which reads it from the site or answers from the heads', async () => {
    // why: the sample content built past a text budget of 0 bytes, as a large site is
    const built = await mkdtemp(path.join(tmpdir(), 'split-build-'))
    tempDirs.push(built)
    const outFile = path.join(built, 'siteContent.ts')
    const contentDir = path.join(repoRoot, 'content')
    const { textShards } = await buildSiteContent({ contentDir, outFile, inlineTextBytes: 0 })
    expect(textShards).toBeGreaterThan(0)
    const project = await projectWithGenerated(built)
    tempDirs.push(project)
    const packaged = await packageSearchFunction(project, 'none')
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(true)
    const generated = path.dirname(path.join(packaged, SEARCH_DATA_PATH))
    expect(existsSync(path.join(generated, SEARCH_TEXT_FOLDER))).toBe(false)
    // why: the site's origin: the shards as the build publishes them (public/search-text)
    const site = createServer((req, res) => {
      const file = path.join(built, new URL(req.url!, 'http://x').pathname)
      readFile(file).then(
        (body) => res.writeHead(200).end(body),
        () => res.writeHead(404).end(),
      )
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    try {
      const fetched = await askPackaged(packaged, origin, ['months'])
      expect(fetched.answers[0].status).toBe(200)
      expect(fetched.answers[0].body.results[0].highlighted_excerpt).toContain(
        '<mark>months</mark>',
      )
      expect(fetched.stderr).not.toContain('search.text_unavailable')
    } finally {
      site.closeAllConnections()
      await new Promise((resolve) => site.close(resolve))
    }
    // why: the origin gone (a closed port): the answer stands, from the page's head, logged once
    const refused = await askPackaged(packaged, origin, ['months'])
    const [answer] = refused.answers
    expect(answer.status).toBe(200)
    expect(answer.body.results[0].id).toBe('guides/how-to-preorder')
    expect(answer.body.results[0].highlighted_excerpt).not.toContain('<mark>months</mark>')
    const warnings = refused.stderr
      .split('\n')
      .filter((line) => line.includes('search.text_unavailable'))
    expect(warnings).toHaveLength(1)
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', requestId: 'packaged' })
  }, 180_000)

  it('ship no search data with the other functions', async () => {
    const packaged = await packageFunction('reservation')
    expect(existsSync(path.join(packaged, 'netlify/functions/reservation.mjs'))).toBe(true)
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(false)
  }, 120_000)
})
