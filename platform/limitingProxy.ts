import http from 'node:http'

/** Options of {@link startLimitingProxy}. */
export interface LimitingProxyOptions {
  /** Port to listen on (0: a free one). */
  port: number
  /**
   * Port of the server behind it, on 127.0.0.1; read for every request, so the caller may change
   * it (dev-server.ts does when netlify dev starts again on another port).
   */
  targetPort: number
  /** Requests forwarded at once; the others wait their turn, in order of arrival. */
  limit: number
  /** Largest request body forwarded (bytes); a larger one is answered 413. Default: 6,000,000 (Netlify's). */
  maxBodyBytes?: number
  /** How long a request body may take to arrive (ms); a slower one is answered 408. Default: 10,000. */
  bodyTimeoutMs?: number
  /** Headers to set on the answer to a path (netlify.toml's `[[headers]]`). Default: none. */
  headersFor?: (path: string) => Record<string, string>
}

/** Netlify refuses a function request body over 6 MB; netlify dev died on one. */
export const DEFAULT_MAX_BODY_BYTES = 6_000_000
export const DEFAULT_BODY_TIMEOUT_MS = 10_000
export const BODY_TOO_LARGE = 'Request body too large'
export const BODY_TOO_SLOW = 'Request body not received in time'

/**
 * An HTTP proxy in front of netlify dev that forwards at most `limit` requests at a time.
 *
 * why: netlify dev runs every request in a fresh worker thread that imports the function again,
 * and gives it 30 s. A burst of 100 simultaneous requests on a small busy machine started 100
 * imports at once and some ran past 30 s (answered `TimeoutError`). Waiting here does not count
 * against that limit, and a few workers at a time finish sooner than a hundred.
 * The `Host` header is kept, so the functions see the address the client used.
 *
 * It also keeps netlify dev alive: a body is read whole, before the request takes a turn, and
 * forwarded only when complete (netlify dev's process died on a body over 6 MB and on one that
 * never arrived): over `maxBodyBytes` → 413, not complete within `bodyTimeoutMs` → 408, both in
 * the service's JSON error shape. A client that hangs up while it waits gives its turn back; one
 * that hangs up while its request is forwarded closes the request upstream too.
 */
export function startLimitingProxy(options: LimitingProxyOptions): Promise<http.Server> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS
  const waiting: Array<() => void> = []
  let running = 0
  const release = () => {
    running -= 1
    waiting.shift()?.()
  }
  /** `started` resolves true when the request may go, false when cancelled first; `cancel` gives up its place or its turn. */
  const turn = () => {
    let state: 'waiting' | 'running' | 'done' = 'waiting'
    let settle: (go: boolean) => void = () => undefined
    const started = new Promise<boolean>((resolve) => (settle = resolve))
    const start = () => {
      running += 1
      state = 'running'
      settle(true)
    }
    if (running < options.limit) start()
    else waiting.push(start)
    const cancel = () => {
      if (state === 'waiting') {
        const index = waiting.indexOf(start)
        if (index >= 0) waiting.splice(index, 1)
        settle(false)
      } else if (state === 'running') {
        release()
      }
      state = 'done'
    }
    return { started, cancel }
  }

  const server = http.createServer((req, res) => {
    // why: whatever goes wrong with one request, the proxy (and so `npm start`) lives on
    forward(req, res).catch((error: unknown) => {
      console.error('limiting proxy:', error)
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end()
    })
  })

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req, res, maxBodyBytes, bodyTimeoutMs)
    if (body === null) return
    const { started, cancel } = turn()
    // why: a client that gives up while queued must give its place back, or the queue wedges
    res.once('close', cancel)
    if (!(await started)) return
    const headers = withBodyType(req, body.length)
    if (body.length > 0 || 'content-length' in headers || 'transfer-encoding' in headers) {
      delete headers['transfer-encoding']
      headers['content-length'] = String(body.length)
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: options.targetPort,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        const extra = options.headersFor?.(new URL(req.url ?? '/', 'http://x').pathname) ?? {}
        const names = new Set(Object.keys(extra).map((name) => name.toLowerCase()))
        const kept: string[] = []
        for (let index = 0; index < answer.rawHeaders.length; index += 2) {
          if (names.has(answer.rawHeaders[index].toLowerCase())) continue
          kept.push(answer.rawHeaders[index], answer.rawHeaders[index + 1])
        }
        for (const [name, value] of Object.entries(extra)) kept.push(name, value)
        res.writeHead(answer.statusCode ?? 502, kept)
        answer.pipe(res)
      },
    )
    // why: a client that gives up must not leave its request open upstream (a server that never
    // answers, such as another program on netlify dev's old port, would hold it for good)
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy()
    })
    upstream.once('error', (error) => {
      cancel()
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`The local service is not answering (${error.message}); see the terminal`)
    })
    upstream.end(body)
  }
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, () => resolve(server))
  })
}

/** The whole body, or null after answering 413 / 408 (or when the client went away). */
function readBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  maxBodyBytes: number,
  timeoutMs: number,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (body: Buffer | null) => {
      clearTimeout(timer)
      if (!settled) resolve(body)
      settled = true
    }
    const refuse = (status: number, error: string) => {
      settle(null)
      if (res.headersSent) return
      // why: the rest of the body is read and dropped, so the client gets the answer rather than
      // a reset; `Connection: close` would make Node destroy the socket under a client still
      // uploading (EPIPE), so the socket goes when the client stops sending (below)
      req.removeAllListeners('data')
      req.resume()
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ success: false, error }))
    }
    const timer = setTimeout(() => refuse(408, BODY_TOO_SLOW), timeoutMs)
    // why: a client may keep the connection open after the answer; it is not waited for once it
    // stops sending (one still uploading a large body gets to read the answer, not a reset)
    res.once('finish', () => {
      if (!settled || req.complete) return
      let idle = setTimeout(() => req.socket.destroy(), 1_000).unref()
      req.on('data', () => {
        clearTimeout(idle)
        idle = setTimeout(() => req.socket.destroy(), 1_000).unref()
      })
      req.once('end', () => clearTimeout(idle))
    })
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      refuse(413, BODY_TOO_LARGE)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBodyBytes) refuse(413, BODY_TOO_LARGE)
      else chunks.push(chunk)
    })
    req.once('end', () => settle(Buffer.concat(chunks)))
    req.on('error', () => settle(null))
    req.once('close', () => {
      if (!req.complete) settle(null)
    })
  })
}

/**
 * The request's headers, with `Content-Type: application/octet-stream` on a body sent without a
 * type. why: Netlify hands such a body to the function (base64 in transit, bytes in the
 * `Request`), and our endpoints read JSON whatever the type; netlify dev drops it instead.
 */
function withBodyType(req: http.IncomingMessage, bodyLength: number): http.IncomingHttpHeaders {
  if (bodyLength === 0 || req.headers['content-type']) return { ...req.headers }
  return { ...req.headers, 'content-type': 'application/octet-stream' }
}
