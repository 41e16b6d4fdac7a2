import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { ADMIN_TOKEN } from '../helpers/tokens.js'

let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({ ADMIN_API_TOKEN: ADMIN_TOKEN, PREORDER_API_TOKEN: '' })
})
afterAll(async () => server?.stop())

describe('admin-stats over HTTP through the local Netlify emulation', () => {
  it('answers the stats with the token', async () => {
    const response = await fetch(`${server.url}/api/admin-stats`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
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

describe('Content-Type is not enforced (docs/decisions-local.md)', () => {
  async function post(path: string, body: string, type: string | null) {
    const headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_TOKEN}` }
    if (type) headers['Content-Type'] = type
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers,
      body: new TextEncoder().encode(body),
    })
    return { status: response.status, body: await response.json() }
  }

  it.each([null, 'application/octet-stream', 'text/plain', 'application/json; charset=utf-8'])(
    'valid JSON sent with Content-Type %j is read as JSON',
    async (type) => {
      const list = await post('/api/admin-reservations-list', '{"status":"bogus"}', type)
      expect(list).toEqual({
        status: 400,
        body: { success: false, error: 'Invalid status: bogus' },
      })
      const reservation = await post(
        '/api/reservation',
        JSON.stringify({ name: '山田 花子', email: 'x', productSlug: 'chasen-takayama' }),
        type,
      )
      expect(reservation.status).toBe(400)
      expect(reservation.body.details).toEqual([
        { field: 'email', message: 'メールアドレスの形式が正しくありません。' },
      ])
    },
  )

  it('a form post still answers Invalid JSON body', async () => {
    const answer = await post('/api/admin-stats', 'a=1', 'application/x-www-form-urlencoded')
    expect(answer).toEqual({ status: 400, body: { success: false, error: 'Invalid JSON body' } })
  })
})

describe('ids that cannot name a record over HTTP', () => {
  it('a whitespace-only id on delete is refused with 400 before the store is touched', async () => {
    const answer = await server.postJson(
      '/api/admin/reservations/delete',
      { ids: [{ id: ' ', productSlug: 'chasen-takayama' }] },
      ADMIN_TOKEN,
    )
    expect(answer).toEqual({
      status: 400,
      body: {
        success: false,
        error:
          'id and productSlug must be 1 to 200 characters (at most 255 bytes URL-encoded) with no spaces, slashes or control characters',
      },
    })
  })
})

describe('LINE without its variables', () => {
  it('offers no LINE sign-up: the widget is told so, and the login answers its 503 page', async () => {
    const availability = await fetch(`${server.url}/api/products/hario-v60-dripper/availability`)
    expect(await availability.json()).toMatchObject({ lineSignup: false })
    const login = await fetch(`${server.url}/api/line/login?productSlug=hario-v60-dripper`, {
      redirect: 'manual',
    })
    expect(login.status).toBe(503)
    expect(await login.text()).toContain('ただいまLINEでの登録を受け付けられません')
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
