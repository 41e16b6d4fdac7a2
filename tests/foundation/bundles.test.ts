import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
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
    for (const entry of ['reservation.ts', 'notify-signup.ts', 'notify-unsubscribe.ts']) {
      const code = await bundle(entry)
      expect(code).toContain('"chasen-takayama"')
      expect(code).not.toContain(PAGE_ID)
    }
  }, 60_000)

  it('ship the search data file with the search function, which finds it where deployed', async () => {
    const packaged = await packageFunction('search')
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(true)
    // why: the text past each page's head is published with the site, not packaged (issue 21)
    const generated = path.dirname(path.join(packaged, SEARCH_DATA_PATH))
    expect(existsSync(path.join(generated, SEARCH_TEXT_FOLDER))).toBe(false)
    const entry = path.join(packaged, 'netlify/functions/search.mjs')
    expect(existsSync(entry)).toBe(true)
    // why: the site's origin: `public/` as the build publishes it
    const site = createServer((req, res) => {
      const file = path.join(repoRoot, 'public', new URL(req.url!, 'http://x').pathname)
      readFile(file).then(
        (body) => res.writeHead(200).end(body),
        () => res.writeHead(404).end(),
      )
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    // why: another process whose working folder is not the project, as on a Netlify server;
    // `ship internationally` matches past a page's head, so its excerpt needs a text shard
    const script =
      `const { default: handler } = await import(${JSON.stringify(pathToFileURL(entry).href)});` +
      `const answers = [];` +
      `for (const q of ['入荷', 'ship internationally']) {` +
      ` const response = await handler(new Request(${JSON.stringify(origin)} + '/api/search?q=' + encodeURIComponent(q)),` +
      ` { requestId: 'packaged', deploy: { context: 'dev' }, waitUntil() {} });` +
      ` answers.push({ status: response.status, body: await response.json() }) }` +
      `console.log(JSON.stringify(answers))`
    try {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: tmpdir(),
      })
      const [answer, tail] = JSON.parse(stdout.trim().split('\n').pop()!)
      expect(answer.status).toBe(200)
      expect(answer.body.results.map((result: { id: string }) => result.id)).toContain(
        'news/yoyaku-shohin-nyuka',
      )
      expect(answer.body.results[0].highlighted_title).toContain('<mark>入荷</mark>')
      expect(tail.status).toBe(200)
      expect(tail.body.results[0].highlighted_excerpt).toMatch(/<mark>ship<\/mark>/i)
    } finally {
      await new Promise((resolve) => site.close(resolve))
    }
  }, 120_000)

  it('ship no search data with the other functions', async () => {
    const packaged = await packageFunction('reservation')
    expect(existsSync(path.join(packaged, 'netlify/functions/reservation.mjs'))).toBe(true)
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(false)
  }, 120_000)
})
