import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request the recording server received. */
export interface RecordedRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  /** `body` parsed as JSON, or undefined when it is not JSON. */
  json: any
  receivedAt: number
}

/** How the server answers a request: a status and JSON body, or `hang` (never answers), or `refuse` (drops the connection). */
export type RecordedReply =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'refuse'

export interface RecordingServer {
  url: string
  requests: RecordedRequest[]
  /** Decides the reply per request; default: 200 `{}` (Resend paths get realistic ids). */
  reply: (request: RecordedRequest) => RecordedReply
  /** Resolves once `count` requests have been received. */
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>
  close(): Promise<void>
}

/**
 * A local HTTP server standing in for Slack, Discord and Resend: it records every request and
 * answers, fails, hangs or refuses on purpose. It listens on `port` of 127.0.0.1 (default: a free
 * one), so a service started earlier can be pointed at it.
 */
export async function startRecordingServer({
  port = 0,
}: { port?: number } = {}): Promise<RecordingServer> {
  const sockets = new Set<import('node:net').Socket>()
  const waiters: { count: number; resolve: () => void }[] = []
  const state: RecordingServer = {
    url: '',
    requests: [],
    reply: defaultReply,
    async waitFor(count, timeoutMs = 10_000) {
      if (state.requests.length >= count) return state.requests
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${state.requests.length}`)),
          timeoutMs,
        )
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) })
      })
      return state.requests
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = body ? JSON.parse(body) : undefined
      } catch {
        json = undefined
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
        receivedAt: Date.now(),
      }
      state.requests.push(recorded)
      for (const waiter of waiters.filter((w) => state.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      const reply = state.reply(recorded)
      if (reply === 'hang') return
      if (reply === 'refuse') {
        req.socket.destroy()
        return
      }
      res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers })
      res.end(JSON.stringify(reply.body ?? {}))
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return state
}

/** 200 with what the real service would answer for the common calls. */
export function defaultReply(request: RecordedRequest): RecordedReply {
  if (request.path.startsWith('/emails/batch')) {
    const count = Array.isArray(request.json) ? request.json.length : 0
    return {
      status: 200,
      body: { data: Array.from({ length: count }, () => ({ id: crypto.randomUUID() })) },
    }
  }
  if (request.path.startsWith('/emails')) return { status: 200, body: { id: crypto.randomUUID() } }
  return { status: 200, body: {} }
}
