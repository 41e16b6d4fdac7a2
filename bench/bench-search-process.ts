/**
 * Measuring in fresh processes, as a function instance starts: the search function bundled as
 * Netlify bundles it, its cold start (import + first answer) in new `node` processes, and query
 * latency in a process of its own (bench-search-latency.ts). Used by bench-search.ts.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import type { Latency, LatencyMode } from './bench-search-latency.js'

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const COLD_START_RUNS = 7

/** How many processes measure each latency figure; the median of their figures is shown. */
const LATENCY_RUNS = 3

/**
 * p50/p99 measured in processes of their own (bench-search-latency.ts): the median of
 * `LATENCY_RUNS` processes' figures.
 * why: on a shared 2-vCPU machine one process's p99 (its 10th-slowest of 1,000 answers) moved
 * widely from run to run with pauses of the machine and young-generation GCs
 */
export function latenciesApart(mode: LatencyMode, file: string, queriesFile: string): Latency {
  const runs = Array.from({ length: LATENCY_RUNS }, () => latencyProcess(mode, file, queriesFile))
  const median = (values: number[]): number =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  return { p50: median(runs.map((run) => run.p50)), p99: median(runs.map((run) => run.p99)) }
}

/** One process's p50/p99 of `mode` over the queries (bench-search-latency.ts). */
export function latencyProcess(mode: LatencyMode, file: string, queriesFile: string): Latency {
  const output = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'bench/bench-search-latency.ts'),
      mode,
      file,
      queriesFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return JSON.parse(output.toString()) as Latency
}

/**
 * Blobs configured as on Netlify, answered by a stand-in process started off the clock: a read
 * finds nothing (404), a write is accepted. The staff synonyms are read before the first answer
 * (search/synonyms/staffSynonymCache.ts), so the clock includes that read's round trip as a
 * deployed function's does (minus the network); the keyword log write comes after the answer.
 * why: at a closed port the Blobs client retries the read for many seconds and the search waits
 * for it up to SYNONYM_READ_WAIT_MS, which no deployed function does
 */
const blobsStandIn =
  `const { spawn } = await import('node:child_process'); ` +
  `const standIn = spawn(process.execPath, ['-e', ${JSON.stringify(
    "require('node:http').createServer((q, s) => { q.resume(); q.on('end', () => s.writeHead(q.method === 'GET' ? 404 : 200).end()) })" +
      ".listen(0, '127.0.0.1', function () { console.log(this.address().port) })",
  )}], { stdio: ['ignore', 'pipe', 'inherit'] }); ` +
  `const blobsUrl = 'http://127.0.0.1:' + String(await new Promise((r) => standIn.stdout.once('data', r))).trim(); ` +
  `process.env.NETLIFY_BLOBS_CONTEXT = Buffer.from(JSON.stringify({ siteID: 'bench', token: 'bench', edgeURL: blobsUrl, uncachedEdgeURL: blobsUrl })).toString('base64'); `

/**
 * Medians over fresh `node` processes of what `script` prints: the wall time of importing the
 * bundle and answering one request, and, where printed, the CPU time it used (all threads).
 * why: the CPU time varies less than the wall time when other work shares the machine
 */
export function coldStartTimes(
  script: string,
  processes = COLD_START_RUNS,
): { wall: number; cpu: number } {
  const runs = Array.from({ length: processes }, () =>
    // why: a cwd outside the project, so the bundle finds its data file as deployed
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: tmpdir(),
      env: { ...process.env, NETLIFY_BLOBS_CONTEXT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
      .toString()
      .trim()
      .split(' ')
      .map(Number),
  )
  const median = (values: number[]): number =>
    values.sort((x, y) => x - y)[Math.floor(values.length / 2)]!
  return {
    wall: median(runs.map(([wall]) => wall!)),
    cpu: median(runs.map(([, cpu]) => cpu ?? Number.NaN)),
  }
}

/** The median wall time of `script` over fresh processes (see `coldStartTimes`). */
export function coldStart(script: string, processes = COLD_START_RUNS): number {
  return coldStartTimes(script, processes).wall
}

/** The search function as Netlify bundles it; `content` replaces the generated module. */
export async function bundleSearchFunction(
  bundle: string,
  content: string | null,
): Promise<string> {
  await build({
    entryPoints: [path.join(REPO_ROOT, 'netlify/functions/search.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    plugins: content
      ? [
          {
            name: 'bench-content',
            setup(b) {
              b.onResolve({ filter: /generated\/siteContent\.js$/ }, () => ({ path: content }))
            },
          },
        ]
      : [],
  })
  return bundle
}

/**
 * What a function runtime has done before it imports the handler's module: imported its own
 * bootstrap module (Node's loader of module files starts up), built a Request, read a
 * Response's text and opened stdio (Node loads its fetch classes for the first text body).
 * Both cost any function the same, so they stay outside the clock.
 */
const runtimeWarmUp = (bundle: string): string => {
  const bootstrap = path.join(path.dirname(bundle), 'runtime-bootstrap.mjs')
  writeFileSync(bootstrap, 'export {}\n')
  return (
    `await import(${JSON.stringify(pathToFileURL(bootstrap).href)}); ` +
    `await new Response(new Request('http://localhost/', { method: 'POST', body: '{}' }).body, { headers: { 'Content-Type': 'text/plain' } }).text(); process.stdout; process.stderr; `
  )
}

export const importScript = (bundle: string): string =>
  runtimeWarmUp(bundle) +
  `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(bundle).href)}); console.log(performance.now() - t)`

/** Import, then answer one real Request (which reads the data file and searches). */
export const firstAnswerScript = (bundle: string, query = '珈琲豆'): string =>
  runtimeWarmUp(bundle) +
  blobsStandIn +
  `const t = performance.now(); const c = process.cpuUsage(); const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); ` +
  `const r = await m.default(new Request('http://localhost/api/search?q=' + encodeURIComponent(${JSON.stringify(query)})), ` +
  `{ requestId: 'bench', deploy: { context: 'dev' }, waitUntil() {} }); const body = await r.text(); const t2 = performance.now(); const u = process.cpuUsage(c); ` +
  `if (r.status !== 200 || !JSON.parse(body).results.length) throw new Error('no answer: ' + body); ` +
  `console.log((t2 - t) + ' ' + (u.user + u.system) / 1000); ` +
  `standIn.kill(); process.exit(0)`

/** Plain MiniSearch's cold start: its index JSON inside a bundled module, as ours once was. */
export async function baselineColdScript(
  dir: string,
  baselineJson: string,
  fields: readonly string[],
): Promise<string> {
  const module = path.join(dir, 'baseline.mjs')
  const entry = path.join(dir, 'baseline-entry.mjs')
  await writeFile(
    entry,
    `import MiniSearch from 'minisearch'\nexport const index = ${JSON.stringify(baselineJson)}\nexport { MiniSearch }\n`,
  )
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: module,
    logLevel: 'error',
    nodePaths: [path.join(REPO_ROOT, 'node_modules')],
  })
  return (
    runtimeWarmUp(module) +
    `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(module).href)}); ` +
    `const i = m.MiniSearch.loadJSON(m.index, { fields: ${JSON.stringify(fields)} }); i.search('coffee'); console.log(performance.now() - t)`
  )
}
