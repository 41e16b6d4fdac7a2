import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { hangUpMidBody } from '../helpers/requests.js'

/**
 * `npm start` survives impatient and broken clients: clients that give up while queued in the
 * limiting proxy, a body over 6 MB, a body that never arrives, a crash of netlify dev; and it
 * serves netlify.toml's headers.
 */

const TOKEN = 'e2e-resilience-token'
let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: TOKEN, PREORDER_API_TOKEN: '' })
})
afterAll(async () => server?.stop())

/** A request that any function answers at once (405 before any data is touched). */
async function answersNormally(): Promise<number> {
  const response = await fetch(`${server.url}/api/admin-stats`, {
    method: 'PUT',
    // why: the service must answer; a wedged proxy never does
    signal: AbortSignal.timeout(25_000),
  })
  await response.arrayBuffer()
  return response.status
}

/** Sends raw bytes and answers the first line of the reply, or `'no answer'` after `waitMs`. */
function rawExchange(bytes: string, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const { port } = new URL(server.url)
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes))
    let reply = ''
    const timer = setTimeout(() => finish('no answer'), waitMs)
    const finish = (value: string) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(value)
    }
    socket.on('data', (chunk) => {
      reply += chunk.toString()
      if (reply.includes('\r\n\r\n') && reply.includes('}')) finish(reply)
    })
    socket.on('error', () => finish(reply || 'no answer'))
    socket.on('close', () => finish(reply || 'no answer'))
  })
}

describe('npm start survives impatient and broken clients', () => {
  it('30 clients that give up while queued leave no slot taken: a normal request then answers', async () => {
    // why: with a body; a client that hung up before its body was forwarded held its slot for good
    const impatient = Array.from({ length: 30 }, () =>
      fetch(`${server.url}/api/admin-stats`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(100),
      }).then(
        () => 'answered',
        () => 'gave up',
      ),
    )
    const outcomes = await Promise.all(impatient)
    expect(outcomes.filter((outcome) => outcome === 'gave up').length).toBeGreaterThan(8)
    // and 30 that hang up in the middle of their body, while queued behind 8 others
    const port = Number(new URL(server.url).port)
    await Promise.all(Array.from({ length: 30 }, () => hangUpMidBody(port, 100)))
    expect(await answersNormally()).toBe(405)
    // and again: nothing leaked from the first round either
    await Promise.all(
      Array.from({ length: 30 }, () =>
        fetch(`${server.url}/api/admin-stats`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(100),
        }).catch(() => undefined),
      ),
    )
    expect(await answersNormally()).toBe(405)
  }, 90_000)

  it('a body over 6,000,000 bytes answers 413 in the JSON error shape; the service lives on', async () => {
    const response = await fetch(`${server.url}/api/reservation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.alloc(6_000_001, 0x20),
      signal: AbortSignal.timeout(25_000),
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({ success: false, error: 'Request body too large' })
    const declared = await rawExchange(
      'POST /api/reservation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 50000000\r\n\r\n{"name":',
      15_000,
    )
    expect(declared).toMatch(/^HTTP\/1\.1 413 /)
    expect(await answersNormally()).toBe(405)
  }, 60_000)

  it('a Content-Length whose body never arrives answers 408; the service lives on', async () => {
    const reply = await rawExchange(
      'POST /api/reservation HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"name":',
      20_000,
    )
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply).toContain('{"success":false,"error":"Request body not received in time"}')
    expect(await answersNormally()).toBe(405)
  }, 60_000)

  it('a crashed netlify dev is started again', async () => {
    const pid = Number(/netlify dev started \(process (\d+)\)/.exec(server.output())?.[1])
    expect(pid).toBeGreaterThan(0)
    process.kill(-pid, 'SIGKILL')
    let status = 0
    for (let attempt = 0; attempt < 60 && status !== 405; attempt++) {
      status = await answersNormally().catch(() => 0)
      if (status !== 405) await new Promise((resolve) => setTimeout(resolve, 2_000))
    }
    expect(status).toBe(405)
    expect(server.output()).toContain('starting it again')
  }, 150_000)

  it('starts netlify dev again on another port when its own was taken meanwhile', async () => {
    const [, pid, port] = [
      ...server.output().matchAll(/netlify dev started \(process (\d+)\) on port (\d+)/g),
    ]
      .at(-1)!
      .map(Number)
    expect(pid).toBeGreaterThan(0)
    // why: another local server may take netlify dev's port before a restart binds it again
    const taken = port
    process.kill(-pid, 'SIGKILL')
    // why: a request forwarded in the moment before the restart is noticed reaches the squatter,
    // which never answers; its connections are let go at the end (or its close waits for good)
    const held: net.Socket[] = []
    const squatter = net.createServer((socket) => held.push(socket.resume()))
    // why: the killed process lets go of its port a moment after the signal
    for (let attempt = 0; ; attempt++) {
      const bound = await new Promise<boolean>((resolve) => {
        squatter.once('error', () => resolve(false))
        squatter.listen(taken, () => resolve(true))
      })
      if (bound) break
      expect(attempt).toBeLessThan(100)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    try {
      let status = 0
      for (let attempt = 0; attempt < 60 && status !== 405; attempt++) {
        status = await answersNormally().catch(() => 0)
        if (status !== 405) await new Promise((resolve) => setTimeout(resolve, 2_000))
      }
      expect(status).toBe(405)
    } finally {
      for (const socket of held) socket.destroy()
      await new Promise((resolve) => squatter.close(resolve))
    }
  }, 150_000)
})

describe("npm start serves netlify.toml's headers", () => {
  it.each(['/admin/', '/admin/app.js', '/admin'])(
    '%s is never cached (no-store) and keeps its other headers',
    async (path) => {
      const response = await fetch(`${server.url}${path}`)
      await response.arrayBuffer()
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    },
  )

  it('/widget/ keeps its own five-minute caching', async () => {
    const response = await fetch(`${server.url}/widget/shop-widget.js`)
    await response.arrayBuffer()
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
  })
})
