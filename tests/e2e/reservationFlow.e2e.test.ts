import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDevServer, type RunningDevServer } from '../../platform/startDevServer.js'
import { ADMIN_TOKEN, PREORDER_TOKEN } from '../helpers/tokens.js'

let server: RunningDevServer

beforeAll(async () => {
  server = await startDevServer({
    ADMIN_API_TOKEN: ADMIN_TOKEN,
    PREORDER_API_TOKEN: PREORDER_TOKEN,
  })
})
afterAll(async () => server?.stop())

describe('a reservation, end to end over HTTP', () => {
  it('is created, listed, confirmed, archived and found in the archive list', async () => {
    const created = await server.postJson('/api/reservation', {
      name: '  山田 花子 ',
      email: 'Hanako.Yamada@Example.JP',
      productSlug: 'kyusu-tokoname',
    })
    expect(created.status).toBe(200)
    expect(created.body).toEqual({ success: true, reservationId: expect.stringMatching(/^res_/) })
    const id = created.body.reservationId as string
    // why: npm start's storefront is its demo page on the address served (STOREFRONT_URL)
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toContain(`商品ページ: ${server.url}/demo/products/kyusu-tokoname`)

    const listed = await server.postJson(
      '/api/admin-reservations-list',
      { productSlug: 'kyusu-tokoname' },
      ADMIN_TOKEN,
    )
    expect(listed.status).toBe(200)
    const mine = listed.body.reservations.find((r: { id: string }) => r.id === id)
    expect(mine).toMatchObject({
      id,
      name: '山田 花子',
      email: 'hanako.yamada@example.jp',
      productSlug: 'kyusu-tokoname',
      status: 'pending',
      notes: '',
      respondedAt: null,
    })

    const confirmed = await server.postJson(
      '/api/admin-reservations-status',
      { id, productSlug: 'kyusu-tokoname', status: 'confirmed', notes: '店頭受け取り' },
      ADMIN_TOKEN,
    )
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.reservation).toMatchObject({ status: 'confirmed', notes: '店頭受け取り' })
    expect(confirmed.body.reservation.respondedAt).toEqual(expect.any(String))

    const archived = await server.postJson(
      '/api/admin/reservations/archive',
      { ids: [{ id, productSlug: 'kyusu-tokoname' }] },
      PREORDER_TOKEN,
    )
    expect(archived.status).toBe(200)
    expect(archived.body).toMatchObject({ success: true, archivedCount: 1, archivedIds: [id] })

    const active = await server.postJson('/api/admin-reservations-list', {}, ADMIN_TOKEN)
    expect(active.body.reservations.some((r: { id: string }) => r.id === id)).toBe(false)

    const archive = await server.postJson(
      '/api/admin/reservations/archives/list',
      { productSlug: 'kyusu-tokoname', pageSize: 100 },
      PREORDER_TOKEN,
    )
    expect(archive.status).toBe(200)
    const found = archive.body.reservations.find((r: { id: string }) => r.id === id)
    expect(found).toMatchObject({ id, status: 'confirmed', isArchived: true })
    expect(found.archivedAt).toEqual(expect.any(String))
    expect(archive.body).toMatchObject({ page: 1, pageSize: 100, total: expect.any(Number) })
  })

  it('refuses an unknown product and invalid fields in Japanese', async () => {
    const unknown = await server.postJson('/api/reservation', {
      name: '客',
      email: 'a@example.jp',
      productSlug: 'no-such-product',
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.success).toBe(false)
    expect(unknown.body.error).toMatch(/[ぁ-んァ-ヶ一-龠]/)

    const invalid = await server.postJson('/api/reservation', {
      name: ' ',
      email: 'nope',
      productSlug: 'x',
    })
    expect(invalid.status).toBe(400)
    const fields = invalid.body.details.map((d: { field: string }) => d.field)
    expect(fields).toEqual(expect.arrayContaining(['name', 'email']))
  })

  it('keeps 100 simultaneous reservations: every one answers 200 and is listed', async () => {
    const product = 'hasami-rim-plate'
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        server.postJson('/api/reservation', {
          name: `同時 ${index}`,
          email: `simultaneous-${index}@example.jp`,
          productSlug: product,
        }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array(100).fill(200))
    const ids = answers.map((answer) => answer.body.reservationId as string)
    expect(new Set(ids).size).toBe(100)

    const listed = await server.postJson(
      '/api/admin-reservations-list',
      { productSlug: product },
      ADMIN_TOKEN,
    )
    expect(listed.status).toBe(200)
    const listedIds = listed.body.reservations.map((r: { id: string }) => r.id)
    expect(listedIds).toEqual(expect.arrayContaining(ids))
    // why: netlify dev starts a worker per request; on a busy shared machine 100 take a while
  }, 300_000)
})
