import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import handler from '../../netlify/functions/openapi.js'
import { renderApiReference } from '../../src/build/api/apiReference.js'
import { currentOpenApiDocument } from '../../src/build/api/currentOpenApiDocument.js'
import { OPENAPI_JSON } from '../../src/generated/openapi.js'
import { fakeContext } from '../helpers/context.js'
import { answerValidator, openApiDocumentErrors } from './openApiValidator.js'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
let document: Record<string, any>
beforeAll(async () => {
  document = await currentOpenApiDocument()
})

/** Every `config.path` of netlify/functions, read from the source as Netlify reads it. */
async function functionPaths(): Promise<string[]> {
  const files = await readdir(path.join(repoRoot, 'netlify/functions'))
  const paths: string[] = []
  for (const file of files) {
    const source = await readFile(path.join(repoRoot, 'netlify/functions', file), 'utf8')
    const declared = /path:\s*'([^']+)'/.exec(source)?.[1]
    // why: Netlify writes a path parameter `:slug`, OpenAPI `{slug}`
    const openApiPath = declared?.replace(/:([A-Za-z]+)/g, '{$1}')
    paths.push(openApiPath ?? `/.netlify/functions/${file.replace(/\.ts$/, '')}`)
  }
  return paths
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (the official schema)', async () => {
    expect(await openApiDocumentErrors(document)).toEqual([])
  })

  it('describes every function of netlify/functions, and nothing else', async () => {
    expect(Object.keys(document.paths).sort()).toEqual((await functionPaths()).sort())
  })

  it('gives every admin operation its token scheme, and the public ones none', () => {
    for (const [route, methods] of Object.entries<any>(document.paths)) {
      for (const operation of Object.values<any>(methods)) {
        const schemes = operation.security.flatMap((entry: object) => Object.keys(entry))
        if (route.startsWith('/api/admin/') && /archive|unarchive|delete/.test(route)) {
          expect(schemes, route).toEqual(['preorderToken'])
        } else if (route === '/api/admin/whoami') {
          expect(schemes, route).toEqual(['adminToken', 'preorderToken'])
        } else if (route.endsWith('/notify-deliver-background')) {
          expect(schemes, route).toEqual(['deliveryTicket'])
        } else if (route.endsWith('/listing-rebuild-background')) {
          expect(schemes, route).toEqual(['rebuildTicket'])
        } else if (route.endsWith('/admin-export-background')) {
          expect(schemes, route).toEqual(['exportTicket'])
        } else if (route.includes('admin')) {
          expect(schemes, route).toEqual(['adminToken'])
        } else {
          expect(schemes, route).toEqual([])
        }
      }
    }
  })

  it('has examples that match their own schemas', () => {
    const check = answerValidator(document)
    let checked = 0
    for (const [route, methods] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(methods)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const examples = response.content?.['application/json']?.examples ?? {}
          for (const example of Object.values<any>(examples)) {
            check(method, route, Number(status), example.value)
            checked++
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100)
  })

  it('is what the build generated and what GET /api/openapi.json answers, cacheable, from any origin', async () => {
    expect(JSON.parse(OPENAPI_JSON)).toEqual(document)
    const req = new Request('http://localhost/api/openapi.json', {
      headers: { Origin: 'https://storefront.example' },
    })
    const res = await handler(req, fakeContext())
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(await res.json()).toEqual(document)
  })

  it('stays out of the other functions’ bundles', async () => {
    for (const entry of ['reservation.ts', 'search.ts', 'admin-stats.ts']) {
      const result = await build({
        entryPoints: [path.join(repoRoot, 'netlify/functions', entry)],
        bundle: true,
        platform: 'node',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      })
      expect(result.outputFiles[0].text, entry).not.toContain('securitySchemes')
    }
  }, 60_000)
})

describe('docs/api.md', () => {
  it('is the rendering of the current document (regenerate: npm run docs:api)', async () => {
    const committed = await readFile(path.join(repoRoot, 'docs/api.md'), 'utf8')
    expect(committed).toBe(await renderApiReference(document))
  })
})
