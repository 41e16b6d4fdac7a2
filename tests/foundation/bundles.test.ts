import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { resolveConfig } from '@netlify/config'
import { zipFunction } from '@netlify/zip-it-and-ship-it'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { SEARCH_DATA_PATH } from '../../src/lib/search/index/searchDataFile.js'

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
    const entry = path.join(packaged, 'netlify/functions/search.mjs')
    expect(existsSync(entry)).toBe(true)
    // why: another process whose working folder is not the project, as on a Netlify server
    const script =
      `const { default: handler } = await import(${JSON.stringify(pathToFileURL(entry).href)});` +
      `const response = await handler(new Request('http://shop.test/api/search?q=' + encodeURIComponent('入荷')),` +
      ` { requestId: 'packaged', deploy: { context: 'dev' }, waitUntil() {} });` +
      `console.log(JSON.stringify({ status: response.status, body: await response.json() }))`
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: tmpdir(),
    })
    const answer = JSON.parse(stdout.trim().split('\n').pop()!)
    expect(answer.status).toBe(200)
    expect(answer.body.results.map((result: { id: string }) => result.id)).toContain(
      'news/yoyaku-shohin-nyuka',
    )
    expect(answer.body.results[0].highlighted_title).toContain('<mark>入荷</mark>')
  }, 120_000)

  it('ship no search data with the other functions', async () => {
    const packaged = await packageFunction('reservation')
    expect(existsSync(path.join(packaged, 'netlify/functions/reservation.mjs'))).toBe(true)
    expect(existsSync(path.join(packaged, SEARCH_DATA_PATH))).toBe(false)
  }, 120_000)
})
