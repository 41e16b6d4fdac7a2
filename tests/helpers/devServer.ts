import { spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export interface RunningDevServer {
  url: string
  /** POSTs `body` as JSON (with a Bearer token when given); status and parsed answer. */
  postJson(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }>
  /** Everything the server printed so far. */
  output(): string
  stop(): Promise<void>
}

const PROJECT_ROOT = resolve(import.meta.dirname, '../..')
const PROJECT_FILES = ['netlify', 'src', 'public', 'scripts', 'netlify.toml', 'package.json']

/**
 * Starts `scripts/dev-server.ts` (what `npm start` runs) on a random port, in a copy of the project
 * so that its Blobs sandbox under `.netlify/` is its own, and waits until it answers.
 */
export async function startDevServer(env: Record<string, string> = {}): Promise<RunningDevServer> {
  const root = await mkdtemp(join(tmpdir(), 'shop-e2e-'))
  for (const file of PROJECT_FILES) {
    await cp(join(PROJECT_ROOT, file), join(root, file), { recursive: true })
  }
  await symlink(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  const child: ChildProcess = spawn(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/dev-server.ts'],
    {
      cwd: root,
      env: { ...process.env, NETLIFY_BLOBS_CONTEXT: '', ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`dev server did not start:\n${output}`)),
      90_000,
    )
    const check = () => {
      const match = /Service running on (http:\/\/localhost:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    }
    child.stdout?.on('data', check)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`dev server exited with ${code}:\n${output}`))
    })
  })
  return {
    url,
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
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done))
        child.kill('SIGTERM')
        await exited
      }
      await rm(root, { recursive: true, force: true })
    },
  }
}
