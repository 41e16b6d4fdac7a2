/**
 * `npm run bench local`: the local service as `npm start` runs it (netlify dev with the atomic
 * Blobs server, in a temporary copy of the project), and the cold start of a form function as
 * Netlify packages it. Prints figures against their goals; asserts nothing.
 *
 * - p50 per endpoint kind (form POSTs, admin lists and stats, search), sign-up and reservation
 *   interleaved in one run so that both see the same machine;
 * - 100 simultaneous reservations: all 200? all listed? how long;
 * - packaged cold start of the form functions: a fresh `node` process imports the function as
 *   @netlify/zip-it-and-ship-it packages it (netlify.toml read by @netlify/config) and answers
 *   one valid request against a local Blobs server.
 *
 * The machine is shared: the load average is printed with the figures.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { resolveConfig } from '@netlify/config'
import { zipFunction } from '@netlify/zip-it-and-ship-it'
import { startDevServer, type RunningDevServer } from '../platform/startDevServer.js'
import { AtomicBlobsServer } from '../platform/atomicBlobsServer.js'

const run = promisify(execFile)
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ADMIN = 'bench-admin-token'
const PRODUCT = 'chasen-takayama'
const ROUNDS = 15
const SIMULTANEOUS = 100
const COLD_START_RUNS = 9
const FORM_FUNCTIONS = ['reservation', 'notify-signup']

/** Goals of the local service's speed. */
const GOALS = { formP50: 300, adminP50: 300, coldStart: 100 }

const ms = (value: number) => `${value.toFixed(0)} ms`
const mark = (ok: boolean) => (ok ? '✓ goal met' : '✗ goal missed')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]
const load = () => `load average ${loadavg()[0].toFixed(1)} on this machine`

let uniqueCounter = 0
const uniqueEmail = () => `bench-${process.pid}-${uniqueCounter++}@example.jp`

async function timed(request: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const started = performance.now()
  const response = await request()
  await response.arrayBuffer()
  return { ms: performance.now() - started, status: response.status }
}

function post(server: RunningDevServer, path: string, body: unknown, token?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  return () =>
    fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
}

/** The kinds of request measured, each one a request made fresh per round. */
function endpointKinds(server: RunningDevServer) {
  return {
    'form: reservation': () =>
      post(server, '/api/reservation', {
        name: '計測',
        email: uniqueEmail(),
        productSlug: PRODUCT,
      })(),
    'form: notify-signup': () =>
      post(server, '/api/notify-signup', { email: uniqueEmail(), productSlug: PRODUCT })(),
    'admin: reservations list': post(server, '/api/admin-reservations-list', {}, ADMIN),
    'admin: notify list': post(server, '/api/admin-notify-list', {}, ADMIN),
    'admin: stats': post(server, '/api/admin-stats', {}, ADMIN),
    search: () => fetch(`${server.url}/api/search?q=${encodeURIComponent('入荷')}`),
  }
}

async function endpointLatency(server: RunningDevServer): Promise<void> {
  const kinds = endpointKinds(server)
  const times = new Map<string, number[]>(Object.keys(kinds).map((name) => [name, []]))
  const failures: string[] = []
  for (let round = 0; round < ROUNDS; round++) {
    if (process.stdout.isTTY) process.stdout.write(`\r  round ${round + 1}/${ROUNDS}`)
    for (const [name, request] of Object.entries(kinds)) {
      const { ms: took, status } = await timed(request)
      if (status !== 200) failures.push(`${name}: ${status}`)
      times.get(name)!.push(took)
    }
  }
  if (process.stdout.isTTY) process.stdout.write('\r')
  console.log(`p50 over ${ROUNDS} sequential requests per kind (${load()}):`)
  for (const [name, values] of times) {
    const goal = name.startsWith('form')
      ? GOALS.formP50
      : name.startsWith('admin')
        ? GOALS.adminP50
        : null
    const p50 = median(values)
    console.log(
      `  ${name.padEnd(26)} p50 ${ms(p50).padStart(7)}` +
        (goal ? `  (goal ≤ ${goal} ms: ${mark(p50 <= goal)})` : ''),
    )
  }
  const signup = median(times.get('form: notify-signup')!)
  const reservation = median(times.get('form: reservation')!)
  console.log(`  sign-up / reservation p50, same run: ${(signup / reservation).toFixed(2)}×`)
  if (failures.length) console.log(`  non-200 answers: ${failures.join(', ')}`)
}

async function simultaneousReservations(server: RunningDevServer): Promise<void> {
  const product = 'hasami-rim-plate'
  const started = performance.now()
  const answers = await Promise.all(
    Array.from({ length: SIMULTANEOUS }, (_, index) =>
      post(server, '/api/reservation', {
        name: `同時 ${index}`,
        email: uniqueEmail(),
        productSlug: product,
      })().then(async (response) => ({ status: response.status, body: await response.json() })),
    ),
  )
  const took = performance.now() - started
  const ok = answers.filter((answer) => answer.status === 200)
  const listed = await server.postJson(
    '/api/admin-reservations-list',
    { productSlug: product },
    ADMIN,
  )
  const listedIds = new Set(listed.body.reservations?.map((r: { id: string }) => r.id) ?? [])
  const kept = ok.filter((answer) => listedIds.has(answer.body.reservationId)).length
  const statuses = [...new Set(answers.map((answer) => answer.status))].join(', ')
  console.log(
    `${SIMULTANEOUS} simultaneous reservations: ${ok.length} × 200 (statuses: ${statuses}), ` +
      `${kept} listed, all answered in ${ms(took)} (${load()})  ` +
      `(goal: all 200 and all listed: ${mark(ok.length === SIMULTANEOUS && kept === SIMULTANEOUS)})`,
  )
}

/** The function as a Netlify build packages it (unzipped); the path of its module. */
async function packageFunction(name: string, out: string): Promise<string> {
  const { config } = await resolveConfig({
    repositoryRoot: REPO_ROOT,
    cwd: REPO_ROOT,
    offline: true,
  })
  const own = { ...config.functions?.['*'], ...config.functions?.[name] }
  await zipFunction(path.join(REPO_ROOT, 'netlify/functions', `${name}.ts`), out, {
    archiveFormat: 'none',
    basePath: REPO_ROOT,
    repositoryRoot: REPO_ROOT,
    config: { '*': { nodeBundler: own.node_bundler, includedFiles: own.included_files } },
  })
  return path.join(out, name, 'netlify/functions', `${name}.mjs`)
}

/** A fresh process: import the module, answer one valid form request; prints both times. */
function coldStartScript(modulePath: string, name: string): string {
  const body =
    name === 'reservation'
      ? { name: '計測', email: 'cold@example.jp', productSlug: PRODUCT }
      : { email: 'cold@example.jp', productSlug: PRODUCT }
  return (
    `const started = performance.now(); const cpu = process.cpuUsage();` +
    `const { default: handler } = await import(${JSON.stringify(pathToFileURL(modulePath).href)});` +
    `const imported = performance.now();` +
    `const response = await handler(new Request('http://shop.test/api/${name}', { method: 'POST',` +
    ` headers: { 'Content-Type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(body))} }),` +
    ` { requestId: 'cold', deploy: { context: 'dev' }, waitUntil() {} });` +
    `await response.text();` +
    `if (response.status !== 200) throw new Error('status ' + response.status);` +
    `const used = process.cpuUsage(cpu);` +
    `console.log(JSON.stringify({ imported: imported - started, answered: performance.now() - started,` +
    ` cpu: (used.user + used.system) / 1000 }));` +
    `process.exit(0)`
  )
}

async function coldStarts(): Promise<void> {
  const out = await mkdtemp(path.join(tmpdir(), 'bench-local-'))
  const blobs = new AtomicBlobsServer({
    directory: path.join(out, 'blobs'),
    token: 'bench',
    port: 0,
  })
  const { port } = await blobs.start()
  const edgeURL = `http://127.0.0.1:${port}`
  const context = { edgeURL, uncachedEdgeURL: edgeURL, siteID: 'bench', token: 'bench' }
  const env = {
    ...process.env,
    NETLIFY_BLOBS_CONTEXT: Buffer.from(JSON.stringify(context)).toString('base64'),
    LOCAL_BLOBS_SERVER: '',
  }
  try {
    console.log(`Packaged cold start, median of ${COLD_START_RUNS} fresh processes (${load()}):`)
    for (const name of FORM_FUNCTIONS) {
      const modulePath = await packageFunction(name, out)
      const runs: Array<{ imported: number; answered: number; cpu: number }> = []
      for (let index = 0; index < COLD_START_RUNS; index++) {
        const { stdout } = await run(
          process.execPath,
          ['--input-type=module', '-e', coldStartScript(modulePath, name)],
          { cwd: tmpdir(), env },
        )
        runs.push(JSON.parse(stdout.trim().split('\n').pop()!))
      }
      const answered = median(runs.map((entry) => entry.answered))
      const fastest = Math.min(...runs.map((entry) => entry.answered))
      const cpu = median(runs.map((entry) => entry.cpu))
      // why: on a shared machine wall time measures the neighbours; CPU time is the function's own
      console.log(
        `  ${name.padEnd(14)} import ${ms(median(runs.map((entry) => entry.imported)))}, ` +
          `import + first answer ${ms(answered)} (fastest ${ms(fastest)}), CPU ${ms(cpu)}  ` +
          `(goal ≤ ${GOALS.coldStart} ms: wall ${mark(answered <= GOALS.coldStart)}, ` +
          `CPU ${mark(cpu <= GOALS.coldStart)})`,
      )
    }
  } finally {
    await blobs.stop()
    await rm(out, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  console.log('Packaging the form functions as Netlify does…')
  await coldStarts()
  // why: `tsx bench/bench-local.ts --cold-start-only` while working on import costs
  if (process.argv.includes('--cold-start-only')) return
  console.log(
    '\nStarting the local service as `npm start` does (netlify dev, warming every function)…',
  )
  const started = performance.now()
  const server = await startDevServer({ ADMIN_API_TOKEN: ADMIN, PREORDER_API_TOKEN: '' })
  console.log(`  ready (every function answered) after ${ms(performance.now() - started)}`)
  try {
    await endpointLatency(server)
    await simultaneousReservations(server)
  } finally {
    await server.stop()
  }
}

await main()
