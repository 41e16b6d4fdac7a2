import http from 'node:http'

/** Options of {@link startLimitingProxy}. */
export interface LimitingProxyOptions {
  /** Port to listen on (0: a free one). */
  port: number
  /** Port of the server behind it, on 127.0.0.1. */
  targetPort: number
  /** Requests forwarded at once; the others wait their turn, in order of arrival. */
  limit: number
}

/**
 * An HTTP proxy in front of netlify dev that forwards at most `limit` requests at a time.
 *
 * why: netlify dev runs every request in a fresh worker thread that imports the function again,
 * and gives it 30 s. A burst of 100 simultaneous requests on a small busy machine started 100
 * imports at once and some ran past 30 s (answered `TimeoutError`). Waiting here does not count
 * against that limit, and a few workers at a time finish sooner than a hundred.
 * The `Host` header is kept, so the functions see the address the client used.
 */
export function startLimitingProxy(options: LimitingProxyOptions): Promise<http.Server> {
  const waiting: Array<() => void> = []
  let running = 0
  const release = () => {
    running -= 1
    waiting.shift()?.()
  }
  const turn = () =>
    new Promise<void>((resolve) => {
      if (running < options.limit) {
        running += 1
        resolve()
      } else {
        waiting.push(() => {
          running += 1
          resolve()
        })
      }
    })

  const server = http.createServer(async (req, res) => {
    await turn()
    let released = false
    const done = () => {
      if (!released) {
        released = true
        release()
      }
    }
    res.once('close', done)
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: options.targetPort,
        method: req.method,
        path: req.url,
        headers: withBodyType(req),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders)
        answer.pipe(res)
      },
    )
    upstream.once('error', (error) => {
      done()
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' })
      res.end(`The local service is not answering (${error.message}); see the terminal`)
    })
    req.pipe(upstream)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, () => resolve(server))
  })
}

/**
 * The request's headers, with `Content-Type: application/octet-stream` on a body sent without a
 * type. why: Netlify hands such a body to the function (base64 in transit, bytes in the
 * `Request`), and our endpoints read JSON whatever the type; netlify dev drops it instead.
 */
function withBodyType(req: http.IncomingMessage): http.IncomingHttpHeaders {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || 'transfer-encoding' in req.headers
  if (!hasBody || req.headers['content-type']) return req.headers
  return { ...req.headers, 'content-type': 'application/octet-stream' }
}
