import { execFile } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import {
  profileEnvironment,
  SHARED_SERVICE_START_LIMIT_MS,
  type ServiceProfile,
  type SharedService,
} from './sharedService.js'

const PROJECT_ROOT = resolve(import.meta.dirname, '../..')
const PROFILES: readonly ServiceProfile[] = ['shop', 'archiveToken', 'mail', 'doubleOptIn', 'line']

/** Bundles the dashboard and widgets (public/) as `npm run build` does, so a file run alone sees its changes. */
async function buildBrowserBundles(): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build-browser.ts'],
    { cwd: PROJECT_ROOT },
  )
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = http.createServer()
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done))
  const { port } = probe.address() as AddressInfo
  await new Promise((done) => probe.close(done))
  return port
}

/**
 * Global setup of the `chromium` project (vitest.config.ts). It serves one request,
 * `GET /service/<profile>`, on a local control server whose address the test files get through
 * `inject('sharedServiceControl')`: the first request of a profile builds the browser bundles
 * (once) and starts that profile's service; every later one answers the same service. The
 * services stop when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let bundles: Promise<void> | undefined
  const services = new Map<
    ServiceProfile,
    Promise<{ server: RunningDevServer; resendPort: number }>
  >()

  const start = async (profile: ServiceProfile) => {
    bundles ??= buildBrowserBundles()
    await bundles
    const resendPort = await freePort()
    const server = await startDevServer(profileEnvironment(profile, resendPort), {
      startLimitMs: SHARED_SERVICE_START_LIMIT_MS,
    })
    return { server, resendPort }
  }

  const control = http.createServer((request, response) => {
    const profile = /^\/service\/(\w+)$/.exec(request.url ?? '')?.[1] as ServiceProfile
    const answer = (status: number, body: unknown) =>
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    if (!PROFILES.includes(profile)) return answer(404, { error: `no profile ${request.url}` })
    if (!services.has(profile)) services.set(profile, start(profile))
    services.get(profile)!.then(
      ({ server, resendPort }) =>
        answer(200, { url: server.url, root: server.root, resendPort } satisfies SharedService),
      (error: Error) =>
        answer(500, {
          error: `The ${profile} service of the browser tests did not come up: ${error.message}`,
        }),
    )
  })
  await new Promise<void>((done) => control.listen(0, '127.0.0.1', done))
  project.provide(
    'sharedServiceControl',
    `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
  )

  return async () => {
    control.close()
    const started = await Promise.allSettled(services.values())
    for (const outcome of started) {
      if (outcome.status === 'fulfilled') await outcome.value.server.stop()
    }
  }
}
