import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLimitingProxy } from '../../platform/limitingProxy.js'
import { hangUpMidBody } from '../helpers/requests.js'

/**
 * `npm start`'s limiting proxy (platform/limitingProxy.ts) in front of a stand-in for netlify dev
 * that answers every complete request after 300 ms and records what reached it. The same cases
 * run against `npm start` itself in tests/e2e/localServerResilience.e2e.test.ts.
 */

const received: { method: string; bytes: number }[] = []
let upstream: http.Server
let proxy: http.Server
let url: string

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    let bytes = 0
    req.on('data', (chunk: Buffer) => (bytes += chunk.length))
    req.on('end', () => {
      received.push({ method: req.method ?? '', bytes })
      setTimeout(() => res.end(JSON.stringify({ path: req.url })), 300)
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  proxy = await startLimitingProxy({
    port: 0,
    targetPort: (upstream.address() as AddressInfo).port,
    limit: 8,
    maxBodyBytes: 1_000,
    bodyTimeoutMs: 500,
    headersFor: (path): Record<string, string> =>
      path.startsWith('/admin/') ? { 'Cache-Control': 'no-store' } : {},
  })
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})
afterAll(async () => {
  proxy.closeAllConnections()
  await new Promise((resolve) => proxy.close(resolve))
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
})

const proxyPortOf = (server: http.Server) => (server.address() as AddressInfo).port

function raw(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect((proxy.address() as AddressInfo).port, '127.0.0.1', () =>
      socket.write(bytes),
    )
    let reply = ''
    socket.on('data', (chunk) => (reply += chunk.toString()))
    socket.on('close', () => resolve(reply))
    socket.on('error', () => resolve(reply))
  })
}

describe('the limiting proxy of npm start', () => {
  it('30 clients that give up while queued give their places back (10 rounds, a fresh proxy each)', async () => {
    // why: the leak needs clients hanging up while their connection is still being set up, so
    // each round talks to a proxy (a port) it has no connection to yet; before the fix about
    // half the rounds left no place free
    const outcomes: string[] = []
    for (let round = 0; round < 10; round++) {
      const fresh = await startLimitingProxy({
        port: 0,
        targetPort: (upstream.address() as AddressInfo).port,
        limit: 8,
      })
      const freshUrl = `http://127.0.0.1:${(fresh.address() as AddressInfo).port}`
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          fetch(`${freshUrl}/api/x`, {
            method: index % 3 ? 'POST' : 'GET',
            body: index % 3 ? '{}' : undefined,
            signal: AbortSignal.timeout(100),
          }).catch(() => undefined),
        ),
      )
      await Promise.all(Array.from({ length: 10 }, () => hangUpMidBody(proxyPortOf(fresh), 100)))
      // why: a wedged proxy never answers; 3 s is ample for one 300 ms answer
      outcomes.push(
        await fetch(`${freshUrl}/api/after`, { signal: AbortSignal.timeout(3_000) }).then(
          (answer) => String(answer.status),
          (error: Error) => error.name,
        ),
      )
      fresh.closeAllConnections()
      await new Promise((resolve) => fresh.close(resolve))
    }
    expect(outcomes).toEqual(Array(10).fill('200'))
  }, 60_000)

  it('answers a body over the limit 413 in the JSON error shape and forwards nothing', async () => {
    received.length = 0
    const response = await fetch(`${url}/api/big`, { method: 'POST', body: 'x'.repeat(1_001) })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ success: false, error: 'Request body too large' })
    const chunked = await raw(
      'POST /api/big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `3e9\r\n${'x'.repeat(1_001)}\r\n0\r\n\r\n`,
    )
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /)
    expect(received).toEqual([])
  })

  it('answers a body that never arrives 408 and forwards nothing', async () => {
    received.length = 0
    const reply = await raw(
      'POST /api/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a":',
    )
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply).toContain('{"success":false,"error":"Request body not received in time"}')
    expect(received).toEqual([])
  })

  it('forwards a body within the limit whole', async () => {
    received.length = 0
    const response = await fetch(`${url}/api/ok`, { method: 'POST', body: 'y'.repeat(1_000) })
    expect(response.status).toBe(200)
    expect(received).toEqual([{ method: 'POST', bytes: 1_000 }])
  })

  it('closes the request upstream when its client gives up while it is forwarded', async () => {
    // why: a server that never answers (another program on netlify dev's old port) would
    // otherwise keep the proxy's connection, and the request, open for good
    const silent = net.createServer()
    const sockets: net.Socket[] = []
    const closed = new Promise<void>((resolve) =>
      silent.on('connection', (socket) => {
        sockets.push(socket)
        // why: reading is what notices the other end closing
        socket.resume()
        socket.once('close', () => resolve())
      }),
    )
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const fresh = await startLimitingProxy({
      port: 0,
      targetPort: (silent.address() as AddressInfo).port,
      limit: 8,
    })
    const outcome = await fetch(`http://127.0.0.1:${proxyPortOf(fresh)}/api/x`, {
      signal: AbortSignal.timeout(300),
    }).then(
      () => 'answered',
      () => 'gave up',
    )
    expect(outcome).toBe('gave up')
    const upstreamClosed = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
    ])
    fresh.closeAllConnections()
    await new Promise((resolve) => fresh.close(resolve))
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
    expect(upstreamClosed).toBe(true)
  })

  it("sets netlify.toml's headers for a path over the answer's own", async () => {
    const admin = await fetch(`${url}/admin/index.html`)
    expect(admin.headers.get('cache-control')).toBe('no-store')
    const other = await fetch(`${url}/api/x`)
    expect(other.headers.get('cache-control')).toBeNull()
  })
})
