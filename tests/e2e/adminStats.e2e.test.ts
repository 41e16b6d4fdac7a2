import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../helpers/devServer.js'

const TOKEN = 'e2e-admin-token'
let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: TOKEN, PREORDER_API_TOKEN: '' })
})
afterAll(async () => server?.stop())

describe('admin-stats over HTTP through the local Netlify emulation', () => {
  it('answers the stats with the token', async () => {
    const response = await fetch(`${server.url}/api/admin-stats`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    const body = await response.json()
    expect(body.success).toBe(true)
    for (const resource of ['notify', 'reservations']) {
      expect(body.stats[resource]).toEqual({
        total: expect.any(Number),
        byStatus: expect.any(Object),
        byProduct: expect.any(Object),
      })
    }
  })

  it('answers 401 without the token', async () => {
    const response = await fetch(`${server.url}/api/admin-stats`, { method: 'POST' })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ success: false, error: 'Unauthorized' })
  })

  it('answers a wrong method with 405 and Allow, not a 404', async () => {
    const response = await fetch(`${server.url}/api/admin-stats`, { method: 'GET' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST, OPTIONS')
  })
})
