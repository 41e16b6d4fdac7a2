/**
 * `npm start`: the whole service on http://localhost:8888 (PORT overrides; 0 picks a free port)
 * through netlify-cli's `netlify dev --offline --internal-disable-edge-functions`: functions
 * routed by their `config.path`, built once and reused, static files from `public/`, env vars
 * (process and `.env`), `context.waitUntil`, background functions. No account, no network.
 *
 * Around it, this script:
 * - fills in the local defaults (admin token, secrets, shop name and contact), `SITE_URL` = the
 *   address actually served, so links in messages point at this server, and `STOREFRONT_URL` =
 *   its demo storefront (`/demo`), where product links land;
 * - runs our Blobs server with atomic conditional writes (platform/atomicBlobsServer.ts, data in
 *   `.netlify/local-blobs/`, kept between runs) and points every function at it through
 *   `LOCAL_BLOBS_SERVER` (netlify dev's own sandbox checks and writes in separate steps);
 * - asks every function once and prints `Service running on …` only when all of them answered;
 * - serves it through a proxy that lets 8 requests at a time through, refuses bodies over 6 MB
 *   (413) or slower than 10 s (408), and adds netlify.toml's `[[headers]]` (platform/limitingProxy.ts);
 * - starts netlify dev again when it crashes (up to 5 times a minute);
 * - stops netlify dev's whole process group on Ctrl-C / SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import net from 'node:net'
import { basename, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { resolveConfig } from '@netlify/config'
import { LOCAL_BLOBS_SERVER_VARIABLE } from '../src/lib/storage/blobStore.js'
import { AtomicBlobsServer } from './atomicBlobsServer.js'
import { startLimitingProxy } from './limitingProxy.js'
import { InvalidConfigError, loadConfig } from '../src/lib/config.js'

/** Values that make the local service usable out of the box; never used on Netlify. */
const LOCAL_DEFAULTS: Record<string, string> = {
  ADMIN_API_TOKEN: 'local-admin-token',
  UNSUBSCRIBE_SECRET: 'local-unsubscribe-secret',
  RESERVATION_LINK_SECRET: 'local-reservation-link-secret',
  STOCK_WEBHOOK_SECRET: 'local-stock-webhook-secret',
  ORDER_WEBHOOK_SECRET: 'local-order-webhook-secret',
  // why: the self-service pages and e-mails name the shop and how to reach it
  SHOP_NAME: '茶と珈琲の道具店（デモ）',
  SHOP_CONTACT: 'shop@example.test',
  // why: the README's walk-through answers the same at any hour; `QUIET_HOURS=21-8` in .env
  // tries them locally
  QUIET_HOURS: 'off',
}
const DEFAULT_PORT = 8888
const BLOBS_DIRECTORY = '.netlify/local-blobs'
const FUNCTIONS_DIRECTORY = 'netlify/functions'
/** How long a function may take to answer its first request (it is built on first use). */
const WARM_UP_TIMEOUT_MS = 120_000
/** Requests netlify dev runs at once (each in a worker of its own); the others queue. */
const SIMULTANEOUS_REQUESTS = 8
/** A crashed netlify dev is started again, up to this many times within RESTART_WINDOW_MS. */
const MAX_RESTARTS = 5
const RESTART_WINDOW_MS = 60_000

function loadEnvironment(): void {
  if (existsSync('.env')) process.loadEnvFile('.env')
  for (const [name, value] of Object.entries(LOCAL_DEFAULTS)) {
    if (process.env[name]) continue
    if (name === 'ADMIN_API_TOKEN' && process.env.PREORDER_API_TOKEN) continue
    process.env[name] = value
    console.log(`${name} is not set: using the local development default (see README)`)
  }
}

/** A port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

function requestedPort(): number {
  const raw = process.env.PORT
  if (raw === undefined || raw === '') return DEFAULT_PORT
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number (0 picks a free one), not "${raw}"`)
  }
  return port
}

/**
 * Every function that answers requests and the path that reaches it (`config.path`, else
 * Netlify's default route). Scheduled functions are left out: they answer no visitor, and netlify
 * dev runs them (with their side effects) whatever a request to them asks.
 */
async function functionRoutes(): Promise<Array<{ name: string; path: string }>> {
  const files = (await readdir(FUNCTIONS_DIRECTORY)).filter((file) => /\.[cm]?[jt]s$/.test(file))
  const routes = await Promise.all(
    files.map(async (file) => {
      const name = basename(file).replace(/\.[cm]?[jt]s$/, '')
      const source = await readFile(join(FUNCTIONS_DIRECTORY, file), 'utf8')
      const config = /export const config[^=]*=\s*\{[^}]*\}/.exec(source)?.[0] ?? ''
      const path = /\bpath:\s*['"]([^'"]+)['"]/.exec(config)?.[1]
      const scheduled = /\bschedule:/.test(config)
      return { name, path: path ?? `/.netlify/functions/${name}`, scheduled }
    }),
  )
  return routes.filter((route) => !route.scheduled).map(({ name, path }) => ({ name, path }))
}

/**
 * Asks one function until it answers. A PUT is refused (405) by every endpoint before it touches
 * any data; a background function is answered 202 by netlify dev. Either way the function is
 * built and loaded. An answer without our `X-Request-Id` came from netlify dev, not the function.
 */
async function warmUp(url: string): Promise<void> {
  const deadline = Date.now() + WARM_UP_TIMEOUT_MS
  let last = 'no answer'
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { method: 'PUT' })
      await response.arrayBuffer()
      const fromFunction = response.headers.has('x-request-id') || response.status === 202
      if (fromFunction && response.status < 500) return
      last = `status ${response.status}`
    } catch (error) {
      last = (error as Error).message
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(last)
}

/** netlify.toml's `[[headers]]`, read with Netlify's own config reader. */
async function netlifyTomlHeaders(): Promise<HeaderRule[]> {
  const { config } = await resolveConfig({ cwd: process.cwd(), offline: true })
  return (config.headers ?? []) as HeaderRule[]
}

interface HeaderRule {
  for: string
  values: Record<string, string>
}

/**
 * The headers Netlify would add to the answer of a path. why: netlify dev applies them but its
 * static server then sets its own `Cache-Control: public, max-age=0`, so `/admin/` was cacheable
 * locally although netlify.toml says `no-store`.
 */
function headerRules(rules: HeaderRule[]): (path: string) => Record<string, string> {
  const matchers = rules.map((rule) => {
    const pattern = rule.for.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')
    // why: Netlify's `/admin/*` also covers `/admin` itself
    const bare = rule.for.endsWith('/*') ? `|${pattern.slice(0, -3)}` : ''
    return { test: new RegExp(`^(?:${pattern}${bare})$`), values: rule.values }
  })
  return (path) =>
    Object.assign({}, ...matchers.filter(({ test }) => test.test(path)).map(({ values }) => values))
}

function netlifyCli(): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('netlify-cli/package.json')), 'bin/run.js')
}

// why: netlify dev's own "ready" box comes before its functions answer; ours replaces it
const BANNER_LINE = /[╭╮╰╯│]|Local dev server ready/

/** Copies netlify dev's output to ours, without its banner. */
function relay(stream: NodeJS.ReadableStream | null, to: NodeJS.WriteStream): void {
  if (!stream) return
  createInterface({ input: stream }).on('line', (line) => {
    if (!BANNER_LINE.test(line)) to.write(`${line}\n`)
  })
}

async function main(): Promise<void> {
  loadEnvironment()
  // why: a variable the service cannot read fails at start, naming it, not as a 500 per request
  loadConfig(process.env)
  // why: netlify dev listens on a port of its own behind the proxy that caps simultaneous requests
  const proxyOptions = {
    port: requestedPort(),
    targetPort: 0,
    limit: SIMULTANEOUS_REQUESTS,
    headersFor: headerRules(await netlifyTomlHeaders()),
  }
  const proxy = await startLimitingProxy(proxyOptions)
  // why: only once the proxy holds its port, or the free port found could be that very one
  proxyOptions.targetPort = await freePort()
  const url = `http://localhost:${(proxy.address() as net.AddressInfo).port}`
  if (!process.env.SITE_URL) process.env.SITE_URL = url
  // why: the demo storefront stands in for the shop's site, so product links in e-mails land
  if (!process.env.STOREFRONT_URL) process.env.STOREFRONT_URL = `${process.env.SITE_URL}/demo`

  await mkdir(BLOBS_DIRECTORY, { recursive: true })
  const token = randomUUID()
  const blobs = new AtomicBlobsServer({ directory: BLOBS_DIRECTORY, token, port: 0 })
  const { port: blobsPort } = await blobs.start()
  const edgeURL = `http://127.0.0.1:${blobsPort}`

  let staticPort = await freePort()
  const startNetlifyDev = (): ChildProcess => {
    const netlifyPort = proxyOptions.targetPort
    const started = spawn(
      process.execPath,
      [
        netlifyCli(),
        'dev',
        '--offline',
        '--internal-disable-edge-functions',
        '--port',
        String(netlifyPort),
        '--staticServerPort',
        String(staticPort),
      ],
      {
        // why: its own process group, so that stopping it stops every process it started
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          [LOCAL_BLOBS_SERVER_VARIABLE]: JSON.stringify({ edgeURL, siteID: 'local', token }),
          NO_UPDATE_NOTIFIER: '1',
          BROWSER: 'none',
        },
      },
    )
    relay(started.stdout, process.stdout)
    relay(started.stderr, process.stderr)
    console.log(`netlify dev started (process ${started.pid}) on port ${netlifyPort}`)
    started.once('exit', (code, signal) => {
      if (stopping) return
      // why: one crash (an unhandled rejection inside netlify dev) must not end the service;
      // the proxy answers 502 until the new one listens
      const now = Date.now()
      restarts = restarts.filter((at) => now - at < RESTART_WINDOW_MS)
      if (restarts.length >= MAX_RESTARTS) {
        console.error(
          `netlify dev stopped ${MAX_RESTARTS} times within a minute (last: ${signal ?? `exit code ${code}`}); giving up`,
        )
        void stop(code || 1)
        return
      }
      restarts.push(now)
      console.error(`netlify dev stopped (${signal ?? `exit code ${code}`}); starting it again`)
      if (started.pid) signalGroup(started.pid, 'SIGKILL')
      // why: a port found free can be taken before netlify dev binds it (another local server
      // picked the same one: "Could not acquire required 'port'"), so each start takes new ones
      void Promise.all([freePort(), freePort()]).then(
        ([netlifyPort, nextStaticPort]) => {
          if (stopping) return
          proxyOptions.targetPort = netlifyPort
          staticPort = nextStaticPort
          child = startNetlifyDev()
        },
        (error: unknown) => {
          console.error('no free port to start netlify dev again:', error)
          void stop(1)
        },
      )
    })
    return started
  }
  let restarts: number[] = []
  let stopping = false
  let child = startNetlifyDev()

  const stop = async (code: number): Promise<void> => {
    if (stopping) return
    stopping = true
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      signalGroup(child.pid, 'SIGTERM')
      const killer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
    }
    // why: netlify dev's helpers may outlive its main process for a moment
    if (child.pid) signalGroup(child.pid, 'SIGKILL')
    proxy.close()
    proxy.closeAllConnections()
    await blobs.stop().catch(() => undefined)
    process.exit(code)
  }
  process.on('SIGINT', () => void stop(0))
  process.on('SIGTERM', () => void stop(0))

  const routes = await functionRoutes()
  console.log(`Starting netlify dev on ${url}; warming ${routes.length} functions…`)
  let answered = 0
  const failed: string[] = []
  await Promise.all(
    routes.map(async ({ name, path }) => {
      try {
        await warmUp(`${url}${path}`)
        answered += 1
        if (answered % 5 === 0 || answered === routes.length) {
          console.log(`  ${answered}/${routes.length} functions answer`)
        }
      } catch (error) {
        failed.push(`${name} (${(error as Error).message})`)
      }
    }),
  )
  if (stopping) return
  if (failed.length) {
    console.error(`Service on ${url} is NOT ready; these functions did not answer: ${failed}`)
    return
  }
  console.log(`Service running on ${url}`)
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    // the group has already gone
  }
}

main().catch((error) => {
  if (error instanceof InvalidConfigError) {
    console.error(`Cannot start: ${error.message}`)
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(
      `Port ${process.env.PORT ?? DEFAULT_PORT} is in use: PORT=9000 npm start picks another`,
    )
  } else {
    console.error(error)
  }
  process.exit(1)
})
