import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API_OPERATIONS } from '../../src/build/api/apiOperations.js'
import * as answers from '../../src/build/api/responseSchemas.js'
import { ROUTES, type RouteName, type RouteSpec } from '../../src/lib/routes.js'
import { fakeContext } from '../helpers/context.js'

const functionsDir = fileURLToPath(new URL('../../netlify/functions', import.meta.url))
const routes = Object.entries(ROUTES) as [RouteName, RouteSpec][]
const ADMIN = 'route-table-admin-token'
const PREORDER = 'route-table-preorder-token'

/** `[function name, config.path]` of every function file, read from the source as Netlify reads it. */
async function functionFiles(): Promise<[string, string][]> {
  const files = (await readdir(functionsDir)).filter((file) => file.endsWith('.ts'))
  return Promise.all(
    files.map(async (file): Promise<[string, string]> => {
      const name = file.replace(/\.ts$/, '')
      const source = await readFile(path.join(functionsDir, file), 'utf8')
      const declared = /path:\s*'([^']+)'/.exec(source)?.[1]
      return [name, declared ?? `/.netlify/functions/${name}`]
    }),
  )
}

async function handlerOf(route: RouteSpec) {
  const file = pathToFileURL(path.join(functionsDir, `${route.function}.ts`)).href
  const module = (await import(file)) as {
    default: (req: Request, context: unknown) => Promise<Response>
  }
  return module.default
}

describe('the route table (src/lib/routes.ts)', () => {
  beforeEach(() => {
    // why: both set, so neither group accepts the other's token (D7) and each route shows its own
    vi.stubEnv('ADMIN_API_TOKEN', ADMIN)
    vi.stubEnv('PREORDER_API_TOKEN', PREORDER)
    vi.stubEnv('UNSUBSCRIBE_SECRET', 'route-table-unsubscribe-secret')
    // why: every refused call logs a line; they are expected here
    vi.spyOn(console, 'log').mockImplementation(() => undefined)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.restoreAllMocks()
  })

  it("has one route per function file, at the file's config.path, and nothing else", async () => {
    const files = await functionFiles()
    expect(routes.map(([, route]) => [route.function, route.path]).sort()).toEqual(files.sort())
  })

  it("gives each route the methods its function answers (a 405's Allow)", async () => {
    for (const [name, route] of routes) {
      const handler = await handlerOf(route)
      const response = await handler(
        new Request(`http://shop.test${route.path}`, { method: 'PUT' }),
        fakeContext(),
      )
      expect(response.status, name).toBe(405)
      expect(response.headers.get('Allow'), name).toBe([...route.methods, 'OPTIONS'].join(', '))
    }
  }, 60_000)

  it('gives each route the token group its function checks (§5, D7)', async () => {
    for (const [name, route] of routes) {
      const handler = await handlerOf(route)
      const method = route.methods[0]
      // why: an unparseable body or no query is refused (or answered) after the token check, so
      // no request reaches storage
      const call = (token: string | null) =>
        handler(
          new Request(`http://shop.test${route.path}`, {
            method,
            headers: token ? { Authorization: `Bearer ${token}` } : {},
            ...(method === 'POST' ? { body: 'not json' } : {}),
          }),
          fakeContext(),
        )
      const refused = async (token: string | null) => (await call(token)).status === 401
      const seen = {
        none: !(await refused(null)),
        admin: !(await refused(ADMIN)),
        preorder: !(await refused(PREORDER)),
      }
      const expected = {
        none: route.auth === 'none',
        admin: ['none', 'admin', 'staff'].includes(route.auth),
        preorder: ['none', 'preorder', 'staff'].includes(route.auth),
      }
      expect(seen, name).toEqual(expected)
    }
  }, 60_000)

  it('is what the OpenAPI document is built from: every method of every route, its answer schema', () => {
    const schemas: Record<string, unknown> = answers
    for (const [name, route] of routes) {
      const operations = API_OPERATIONS.filter((operation) => operation.route === name)
      expect(operations.map((operation) => operation.method.toUpperCase()).sort(), name).toEqual(
        [...route.methods].sort(),
      )
      const successBodies = operations.flatMap((operation) =>
        Object.entries(operation.responses)
          .filter(([status, spec]) => status.startsWith('2') && typeof spec.body !== 'string')
          .map(([, spec]) => spec.body),
      )
      expect(successBodies, name).toEqual(route.response === null ? [] : [schemas[route.response]])
    }
  })
})
