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

describe('search over HTTP', () => {
  it('finds a Japanese inner word and highlights it', async () => {
    const response = await fetch(`${server.url}/api/search?q=${encodeURIComponent('入荷')}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=300')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const body = await response.json()
    expect(body.query).toBe('入荷')
    expect(body.totalResults).toBeGreaterThan(0)
    const titles = body.results.map((result: { title: string }) => result.title)
    expect(titles).toContain('予約商品の入荷のお知らせ')
    const top = body.results.find((r: { title: string }) => r.title === '予約商品の入荷のお知らせ')
    expect(top.highlighted_title).toBe('予約商品の<mark>入荷</mark>のお知らせ')
  })

  it('serves the static page from public/', async () => {
    const response = await fetch(`${server.url}/`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('Shop back end')
  })
})

describe('stopping', () => {
  it('stops netlify dev with the server: nothing answers on its port afterwards', async () => {
    const answered = await fetch(`${server.url}/api/admin-stats`, { method: 'POST' })
    expect(answered.status).toBe(401)
    await server.stop()
    await expect(fetch(`${server.url}/api/admin-stats`, { method: 'POST' })).rejects.toThrow()
  })
})
