import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { defineEndpoint } from '../../src/lib/http/endpoint.js'
import { HttpError } from '../../src/lib/http/errors.js'
import { jsonResponse } from '../../src/lib/http/response.js'
import { RecordUpdateConflictError } from '../../src/lib/storage/recordCollection.js'
import { fakeContext } from '../helpers/context.js'
import { jsonRequest, readJson } from '../helpers/requests.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

const echo = defineEndpoint({
  methods: ['POST'],
  auth: 'admin',
  body: z.object({ name: z.string({ error: 'name is required' }) }),
  handle: async ({ body }) => jsonResponse({ success: true, name: body.name }),
})

const preorderEcho = defineEndpoint({
  methods: ['POST'],
  auth: 'preorder',
  body: z.object({}),
  handle: async () => jsonResponse({ success: true }),
})

const publicEcho = defineEndpoint({
  methods: ['POST'],
  auth: 'none',
  body: z.object({}).passthrough(),
  internalErrorMessage: 'サーバーエラーが発生しました',
  handle: async ({ body }) => {
    if (body.explode) throw new Error('database exploded at /secret/path')
    if (body.teapot) throw new HttpError(418, 'I am a teapot', { hint: 'x' })
    return jsonResponse({ success: true })
  },
})

let logs: string[]
beforeEach(() => {
  process.env.ADMIN_API_TOKEN = ADMIN_TOKEN
  process.env.PREORDER_API_TOKEN = PREORDER_TOKEN
  delete process.env.ADMIN_ALLOWED_ORIGINS
  logs = []
  const capture = (...args: unknown[]) => void logs.push(args.join(' '))
  vi.spyOn(console, 'log').mockImplementation(capture)
  vi.spyOn(console, 'error').mockImplementation(capture)
})
afterEach(() => vi.restoreAllMocks())

async function call(handler: typeof echo, req: Request) {
  return readJson(await handler(req, fakeContext({ requestId: 'req-test-1' })))
}

describe('method and content type', () => {
  it('answers a wrong method with 405, Allow and the JSON error', async () => {
    const res = await call(
      echo,
      jsonRequest('/x', undefined, { method: 'GET', token: ADMIN_TOKEN }),
    )
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('POST, OPTIONS')
    expect(res.body).toEqual({ success: false, error: 'Method not allowed' })
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
  })

  it('answers every success as JSON with charset and the request id', async () => {
    const res = await call(echo, jsonRequest('/x', { name: 'a' }, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true, name: 'a' })
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(res.headers.get('x-request-id')).toBe('req-test-1')
  })
})

describe('body parsing (D8)', () => {
  it('refuses malformed JSON', async () => {
    const res = await call(echo, jsonRequest('/x', '{"name":', { token: ADMIN_TOKEN }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'Invalid JSON body' })
  })

  it.each([['[1,2]'], ['"text"'], ['42'], ['null']])('refuses non-object JSON %s', async (raw) => {
    const res = await call(echo, jsonRequest('/x', raw, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ success: false, error: 'Request body must be a JSON object' })
  })

  it('treats an empty admin body as {}', async () => {
    const res = await call(echo, jsonRequest('/x', undefined, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('name is required')
  })

  it('treats an empty public body as invalid JSON', async () => {
    const res = await call(publicEcho, jsonRequest('/x', ''))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('Invalid JSON body')
  })

  it('refuses a body over 100 KB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(100 * 1024) })
    const declared = await call(echo, jsonRequest('/x', big, { token: ADMIN_TOKEN }))
    expect(declared.status).toBe(413)
    expect(declared.body).toEqual({ success: false, error: 'Request body too large' })

    const chunk = new TextEncoder().encode('x'.repeat(1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 200) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const streamed = new Request('http://localhost/x', {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    const res = await call(echo, streamed)
    expect(res.status).toBe(413)
    expect(sent).toBeLessThan(200)
  })

  it('accepts a body just under the limit', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(100 * 1024 - 20) })
    const res = await call(echo, jsonRequest('/x', body, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(200)
  })
})

describe('authentication (§5, D7)', () => {
  it.each([
    ['no header', {}],
    ['a wrong token', { Authorization: 'Bearer nope' }],
    ['another scheme', { Authorization: `Basic ${ADMIN_TOKEN}` }],
    ['the other group token', { Authorization: `Bearer ${PREORDER_TOKEN}` }],
  ])('refuses %s with 401 Unauthorized', async (_label, headers) => {
    const res = await call(echo, jsonRequest('/x', { name: 'a' }, { headers }))
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ success: false, error: 'Unauthorized' })
  })

  it('checks the token before the body', async () => {
    const res = await call(echo, jsonRequest('/x', '{broken', {}))
    expect(res.status).toBe(401)
  })

  it('accepts each group its own token only', async () => {
    expect(
      (await call(preorderEcho, jsonRequest('/x', {}, { token: PREORDER_TOKEN }))).status,
    ).toBe(200)
    expect((await call(preorderEcho, jsonRequest('/x', {}, { token: ADMIN_TOKEN }))).status).toBe(
      401,
    )
  })

  it('falls back to the other group token when a group variable is unset', async () => {
    delete process.env.PREORDER_API_TOKEN
    expect((await call(preorderEcho, jsonRequest('/x', {}, { token: ADMIN_TOKEN }))).status).toBe(
      200,
    )
    process.env.PREORDER_API_TOKEN = PREORDER_TOKEN
    process.env.ADMIN_API_TOKEN = ''
    expect(
      (await call(echo, jsonRequest('/x', { name: 'a' }, { token: PREORDER_TOKEN }))).status,
    ).toBe(200)
  })

  it('fails closed with one clear log line when no token is configured', async () => {
    delete process.env.ADMIN_API_TOKEN
    delete process.env.PREORDER_API_TOKEN
    const res = await call(echo, jsonRequest('/x', { name: 'a' }, { token: 'anything' }))
    expect(res.status).toBe(401)
    const config = logs.filter((line) => line.includes('auth.misconfigured'))
    expect(config).toHaveLength(1)
    expect(config[0]).toContain('ADMIN_API_TOKEN')
    expect(config[0]).toContain('req-test-1')
  })

  it('never logs the token', async () => {
    await call(echo, jsonRequest('/x', { name: 'a' }, { token: 'wrong-guess-123' }))
    await call(echo, jsonRequest('/x', { name: 'a' }, { token: ADMIN_TOKEN }))
    expect(logs.join('\n')).not.toContain('wrong-guess-123')
    expect(logs.join('\n')).not.toContain(ADMIN_TOKEN)
  })
})

describe('errors', () => {
  it('answers an HttpError with its status and fields', async () => {
    const res = await call(publicEcho, jsonRequest('/x', { teapot: true }))
    expect(res.status).toBe(418)
    expect(res.body).toEqual({ success: false, error: 'I am a teapot', hint: 'x' })
  })

  it('answers an unknown error with a 500 without detail and logs the stack with the request id', async () => {
    const res = await call(publicEcho, jsonRequest('/x', { explode: true }))
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ success: false, error: 'サーバーエラーが発生しました' })
    expect(JSON.stringify(res.body)).not.toContain('exploded')
    const line = logs.find((entry) => entry.includes('request.failed'))
    expect(line).toBeDefined()
    const parsed = JSON.parse(line!)
    expect(parsed.requestId).toBe('req-test-1')
    expect(parsed.stack).toContain('database exploded')
  })

  it('uses the English 500 text on admin endpoints', async () => {
    const failing = defineEndpoint({
      methods: ['POST'],
      auth: 'admin',
      body: z.object({}),
      handle: async () => {
        throw new TypeError('boom')
      },
    })
    const res = await call(failing, jsonRequest('/x', {}, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ success: false, error: 'Internal server error' })
  })

  it('answers a record that kept changing under an update with 409, logged as a conflict, not a fault', async () => {
    const contested = defineEndpoint({
      methods: ['POST'],
      auth: 'admin',
      body: z.object({}),
      handle: async () => {
        throw new RecordUpdateConflictError('reservations/mug/res_1', 5)
      },
    })
    const res = await call(contested, jsonRequest('/x', {}, { token: ADMIN_TOKEN }))
    expect(res.status).toBe(409)
    expect(res.body).toEqual({
      success: false,
      error: 'The record was changed by another request at the same time; try again',
    })
    expect(logs.some((entry) => entry.includes('request.conflict'))).toBe(true)
    expect(logs.some((entry) => entry.includes('request.failed'))).toBe(false)
  })
})

describe('CORS (D8)', () => {
  it('answers public preflights for any origin', async () => {
    const req = new Request('http://localhost/x', {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    })
    const res = await publicEcho(req, fakeContext())
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS')
  })

  it('allows only listed origins on admin endpoints', async () => {
    process.env.ADMIN_ALLOWED_ORIGINS = 'https://admin.example, https://staff.example'
    const allowed = await echo(
      jsonRequest(
        '/x',
        { name: 'a' },
        { token: ADMIN_TOKEN, headers: { Origin: 'https://admin.example' } },
      ),
      fakeContext(),
    )
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example')
    expect(allowed.headers.get('vary')).toBe('Origin')
    const other = await echo(
      jsonRequest(
        '/x',
        { name: 'a' },
        { token: ADMIN_TOKEN, headers: { Origin: 'https://evil.example' } },
      ),
      fakeContext(),
    )
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('sends no CORS headers on admin endpoints when no origin is configured', async () => {
    const req = new Request('http://localhost/x', {
      method: 'OPTIONS',
      headers: { Origin: 'https://admin.example' },
    })
    const res = await echo(req, fakeContext())
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})
