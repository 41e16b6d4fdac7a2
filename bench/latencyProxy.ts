import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** The path that answers the proxy's counters (not passed on, not counted). */
export const COUNTERS_PATH = '/__bench/counters'

/** What the proxy has counted: requests, answer bytes, and the bytes of key listings alone. */
export interface ProxyCounter {
  requests: number
  bytes: number
  listedBytes: number
}

/**
 * A proxy in front of a local Blobs server that holds every request `latencyMs` before passing
 * it on (a network round trip on Netlify) and counts them. `GET {url}/__bench/counters` answers
 * the counters so far (a child process measures one call of several). Benchmarks only.
 */
export async function startLatencyProxy(target: string, latencyMs: number) {
  // why: `bytes` is every answer body; `listedBytes` the bodies of key listings alone
  const counter: ProxyCounter = { requests: 0, bytes: 0, listedBytes: 0 }
  const server = http.createServer((req, res) => {
    if (req.url === COUNTERS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counter))
      return
    }
    counter.requests += 1
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      setTimeout(async () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && name !== 'host') headers.set(name, value)
        }
        const upstream = await fetch(target + req.url, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        })
        const body = Buffer.from(await upstream.arrayBuffer())
        counter.bytes += body.length
        if (body.subarray(0, 9).toString() === '{"blobs":') counter.listedBytes += body.length
        const out: Record<string, string> = {}
        upstream.headers.forEach((value, name) => {
          if (name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value
        })
        res.writeHead(upstream.status, out).end(body)
      }, latencyMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, counter, close: () => new Promise((resolve) => server.close(resolve)) }
}

/** The counters of the proxy at `url` so far. */
export async function readProxyCounter(url: string): Promise<ProxyCounter> {
  return (await (await fetch(url + COUNTERS_PATH)).json()) as ProxyCounter
}
