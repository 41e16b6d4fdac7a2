import http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as backgroundModule from '../../netlify/functions/admin-export-background.js'
import * as createModule from '../../netlify/functions/admin-exports.js'
import * as downloadModule from '../../netlify/functions/admin-exports-download.js'
import type { ExportJob } from '../../src/lib/storage/exportJobStore.js'
import { at, type isolatedScope } from './adminTestKit.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

/**
 * The deploy as Netlify runs it, for one scope: a local HTTP server on which the create endpoint
 * starts the background function, exactly as in production (a POST with the ticket).
 */
export function deployOf(scope: ReturnType<typeof isolatedScope>) {
  let origin = ''
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method: incoming.method,
      headers: incoming.headers as Record<string, string>,
      body: incoming.method === 'GET' ? undefined : Buffer.concat(chunks),
    })
    const handler = request.url.includes('admin-export-background')
      ? backgroundModule.default
      : createModule.default
    const context = scope.context()
    const response = await handler(request, context)
    await context.settled()
    outgoing.writeHead(response.status, Object.fromEntries(response.headers))
    outgoing.end(Buffer.from(await response.arrayBuffer()))
  })
  return {
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** A request to this deploy (the create endpoint takes its origin from it). */
    request(path: string, body: unknown, token: string | null = ADMIN_TOKEN) {
      return new Request(new URL(path, origin), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      })
    },
    background: (ticket: string | null, exportId: string) =>
      fetch(new URL('/.netlify/functions/admin-export-background', origin), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(ticket ? { Authorization: `Bearer ${ticket}` } : {}),
        },
        body: JSON.stringify({ exportId }),
      }),
  }
}

/** GET /api/admin/exports/download?`query` of the scope, as staff. */
export async function download(scope: ReturnType<typeof isolatedScope>, query: string) {
  const response = await downloadModule.default(
    new Request(`http://localhost:8888/api/admin/exports/download?${query}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    }),
    scope.context(),
  )
  return response
}

/** An export job of the notify list (unless `overrides` say otherwise) as the create endpoint stores it, in `state`. */
export function storedJob(
  id: string,
  state: ExportJob['state'],
  overrides: Partial<ExportJob> = {},
): ExportJob {
  return {
    id,
    list: 'notify',
    filters: {},
    state,
    createdAt: at(0),
    updatedAt: at(0),
    requestedBy: null,
    fileName: 'x.csv',
    totalRows: null,
    writtenRows: 0,
    parts: 0,
    bytes: 0,
    ...overrides,
  }
}
