import { spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export interface RunningDevServer {
  url: string
  /** The project copy it runs in; its blobs are under `.netlify/local-blobs/`. */
  root: string
  /** POSTs `body` as JSON (with a Bearer token when given); status and parsed answer. */
  postJson(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }>
  /** Everything the server printed so far. */
  output(): string
  stop(): Promise<void>
}

const PROJECT_ROOT = resolve(import.meta.dirname, '..')
/** What `npm start` needs: the build (scripts/, src/), the site, the functions and the local platform. */
const PROJECT_FILES = [
  'netlify',
  'src',
  'public',
  'scripts',
  'platform',
  'netlify.toml',
  'package.json',
]

/**
 * How long a start may take by default: copying the project, netlify dev building every function
 * on its first start, and one answer from each. Under vitest's hook limit (vitest.config.ts), so
 * that a slow start fails with this error and the server's output rather than a bare hook timeout.
 */
const DEV_SERVER_START_LIMIT_MS = 110_000

/** Variables of the caller's shell that would point the server elsewhere than its own copy. */
const INHERITED_NOT = [
  'LOCAL_BLOBS_SERVER',
  'NETLIFY_BLOBS_CONTEXT',
  'SITE_URL',
  'STOREFRONT_URL',
  'PORT',
]

/** The caller's environment without INHERITED_NOT. */
function inheritedEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env }
  for (const name of INHERITED_NOT) delete environment[name]
  return environment
}

/**
 * Starts `platform/dev-server.ts` (what `npm start` runs: netlify dev with our atomic Blobs server)
 * on a free port, in a copy of the project so that its data under `.netlify/` is its own, and
 * waits until every function answers (the server prints `Service running on …` only then).
 */
export async function startDevServer(
  env: Record<string, string> = {},
  { startLimitMs = DEV_SERVER_START_LIMIT_MS }: { startLimitMs?: number } = {},
): Promise<RunningDevServer> {
  const root = await mkdtemp(join(tmpdir(), 'shop-e2e-'))
  for (const file of PROJECT_FILES) {
    await cp(join(PROJECT_ROOT, file), join(root, file), { recursive: true })
  }
  await symlink(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  const child: ChildProcess = spawn(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'platform/dev-server.ts'],
    {
      cwd: root,
      env: { ...inheritedEnvironment(), ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
    await rm(root, { recursive: true, force: true })
  }
  const started = new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `npm start's dev server did not print "Service running on …" within ${startLimitMs / 1000} s:\n${output}`,
          ),
        ),
      startLimitMs,
    )
    const check = () => {
      const match = /Service running on (http:\/\/localhost:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      } else if (/is NOT ready/.test(output)) {
        clearTimeout(timer)
        reject(new Error(`dev server started with failing functions:\n${output}`))
      }
    }
    child.stdout?.on('data', check)
    child.stderr?.on('data', check)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`dev server exited with ${code}:\n${output}`))
    })
  })
  const url = await started.catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return {
    url,
    root,
    async postJson(path, body, token) {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' }
      if (token) headers.Authorization = `Bearer ${token}`
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      })
      return { status: response.status, body: await response.json() }
    },
    output: () => output,
    stop,
  }
}
